// `npm run rule-table`: write the README's table of rules from helpers/rules.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { withRuleTable } from './rule-table.ts';

const readme = new URL('../../README.md', import.meta.url);
writeFileSync(readme, withRuleTable(readFileSync(readme, 'utf8')));
console.log('README.md: rule table written');
