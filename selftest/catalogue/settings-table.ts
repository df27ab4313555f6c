// The README's table of settings, written from their definitions (SETTINGS in helpers/settings.ts)
// between two marker comments, so that the README never lists a setting the suite lacks, misses one
// it reads, or gives another default. One row per setting keeps it inside the README's budget, so a
// row shows the opening of the help text: whole sentences, added until they say enough to recognise
// the setting (SUMMARY_CHARS). The whole text is in .env.example and `--help`, written from the same list.
import { SETTINGS, type Setting } from '../../helpers/settings.ts';
import { cell, type Markers, withTableBetween } from './between-markers.ts';

export const SETTINGS_TABLE_COMMAND = 'npm run settings-table';
export const SETTINGS_TABLE_FILE = 'README.md';
const MARKERS: Markers = {
  file: SETTINGS_TABLE_FILE,
  begin: `<!-- settings table: written from helpers/settings.ts by ${SETTINGS_TABLE_COMMAND}; edit the settings, not this -->`,
  end: '<!-- end of settings table -->',
};

/** A row's text grows by whole sentences until it is at least this long. */
export const SUMMARY_CHARS = 80;

/**
 * The sentences of a help text: a full stop ends one where a capital or a digit starts the next, so
 * neither "e.g. Authorization" nor "http(s)://... or" is cut.
 */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=(?<!\b(?:e\.g|i\.e))\.)\s+(?=[A-Z0-9])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

/** The opening sentences of a help text, enough to recognise the setting by. */
export function summary(help: string): string {
  let text = '';
  for (const sentence of sentences(help)) {
    if (text.length >= SUMMARY_CHARS) break;
    text = text === '' ? sentence : `${text} ${sentence}`;
  }
  return text;
}

/** A value in a code span, where `<` is shown as it is and only a pipe needs escaping; an empty default stays an empty cell. */
const codeCell = (text: string) => (text === '' ? '' : `\`${text.replaceAll('|', '\\|')}\``);

export function renderSettingsTable(docs: readonly Setting[] = SETTINGS): string {
  return [
    '| setting | default | what it is |',
    '|---|---|---|',
    ...docs.map((doc) => `| ${codeCell(doc.name)} | ${codeCell(doc.default)} | ${cell(summary(doc.help))} |`),
  ].join('\n');
}

/** The README with the table between the markers written afresh. */
export function withSettingsTable(readme: string, table = renderSettingsTable()): string {
  return withTableBetween(readme, MARKERS, table);
}
