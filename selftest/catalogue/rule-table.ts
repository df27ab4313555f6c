// The table of rules in docs/rules.md, written from the catalogue (helpers/rules.ts) between two
// marker comments, so that the docs never list a rule the catalogue lacks or miss one it has.
import { type Rule, rules } from '../../helpers/rules.ts';
import { cell, type Markers, withTableBetween } from './between-markers.ts';

export const RULE_TABLE_COMMAND = 'npm run rule-table';
export const RULE_TABLE_FILE = 'docs/rules.md';
const MARKERS: Markers = {
  file: RULE_TABLE_FILE,
  begin: `<!-- rule table: written from helpers/rules.ts by ${RULE_TABLE_COMMAND}; edit the catalogue, not this -->`,
  end: '<!-- end of rule table -->',
};

export function renderRuleTable(catalogue: readonly Rule[] = rules): string {
  return [
    '| rule | level | what it checks | source |',
    '|---|---|---|---|',
    ...catalogue.map(
      (rule) => `| ${rule.id} | ${rule.level.toUpperCase()} | ${cell(rule.title)} | ${cell(rule.source)} |`,
    ),
  ].join('\n');
}

/** docs/rules.md with the table between the markers written afresh. */
export function withRuleTable(page: string, table = renderRuleTable()): string {
  return withTableBetween(page, MARKERS, table);
}
