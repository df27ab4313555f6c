// `npm run settings-table`: write the README's table of settings from helpers/settings.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { SETTINGS_TABLE_FILE, withSettingsTable } from './settings-table.ts';

const page = new URL(`../../${SETTINGS_TABLE_FILE}`, import.meta.url);
writeFileSync(page, withSettingsTable(readFileSync(page, 'utf8')));
console.log(`${SETTINGS_TABLE_FILE}: settings table written`);
