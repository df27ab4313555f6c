// `npm run rule-table`: write the table of rules in docs/rules.md from helpers/rules.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { RULE_TABLE_FILE, withRuleTable } from './rule-table.ts';

const page = new URL(`../../${RULE_TABLE_FILE}`, import.meta.url);
writeFileSync(page, withRuleTable(readFileSync(page, 'utf8')));
console.log(`${RULE_TABLE_FILE}: rule table written`);
