// The README's table of rules, written from the catalogue (helpers/rules.ts) between two marker
// comments, so that the README never lists a rule the catalogue lacks or misses one it has.
import { type Rule, rules } from '../../helpers/rules.ts';

export const RULE_TABLE_COMMAND = 'npm run rule-table';
const BEGIN = `<!-- rule table: written from helpers/rules.ts by ${RULE_TABLE_COMMAND}; edit the catalogue, not this -->`;
const END = '<!-- end of rule table -->';

const cell = (text: string) => text.replaceAll('|', '\\|');

export function renderRuleTable(catalogue: readonly Rule[] = rules): string {
  return [
    '| rule | level | what it checks | source |',
    '|---|---|---|---|',
    ...catalogue.map(
      (rule) => `| ${rule.id} | ${rule.level.toUpperCase()} | ${cell(rule.title)} | ${cell(rule.source)} |`,
    ),
  ].join('\n');
}

/** The README with the table between the markers written afresh. */
export function withRuleTable(readme: string, table = renderRuleTable()): string {
  const begin = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (begin < 0 || end < begin)
    throw new Error(`README.md has lost the rule table's markers; put these two lines back:\n${BEGIN}\n${END}`);
  return `${readme.slice(0, begin + BEGIN.length)}\n\n${table}\n\n${readme.slice(end)}`;
}
