// The rule catalogue and everything kept beside it, checked from the files alone, in a second and
// without a target: adding a rule is one catalogue entry, one test and one mutant, and any other
// place that has to follow either is written from the catalogue or fails here saying what to do.
// Whether the test and the mutant really work, the gallery says (selftest/gallery.test.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { modelRules } from '../helpers/harness/model/top-up.ts';
import { READS, rules, SPEC_VERSION } from '../helpers/rules.ts';
import { SUITE_FILES } from '../helpers/runner/run-suites.ts';
import { SETTINGS } from '../helpers/settings.ts';
import { faults } from '../reference/faults.ts';
import { brokenLinks, githubSlug, headingAnchors, type Repository } from './catalogue/markdown-links.ts';
import { RULE_TABLE_COMMAND, RULE_TABLE_FILE, withRuleTable } from './catalogue/rule-table.ts';
import {
  renderSettingsTable,
  SETTINGS_TABLE_COMMAND,
  SETTINGS_TABLE_FILE,
  sentences,
  summary,
  withSettingsTable,
} from './catalogue/settings-table.ts';
import { readSections, ruleSourceProblems, SPEC_PATH } from './catalogue/spec-sections.ts';
import { projectRoot } from './run-node.ts';

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8');
const mustIds = rules.filter((rule) => rule.level === 'must').map((rule) => rule.id);

/** The files named, and the files with one of the extensions under the folders named. */
function textFiles(paths: readonly string[], extensions = ['.md', '.ts']): string[] {
  return paths.flatMap((path) => {
    const full = join(projectRoot, path);
    if (!existsSync(full)) return [];
    if (!statSync(full).isDirectory()) return [path];
    return readdirSync(full, { recursive: true, encoding: 'utf8' })
      .filter((name) => extensions.some((extension) => name.endsWith(extension)))
      .map((name) => join(path, name));
  });
}

/** What the maintainers write: the docs and the code, never node_modules or reports. */
const MAINTAINED = [
  'README.md',
  'CONTRIBUTING.md',
  '.env.example',
  'docs',
  'bin',
  'helpers',
  'suites',
  'reference',
  'selftest',
];
const families = [...new Set(rules.map((rule) => rule.id.split('-')[0]))].join('|');

/** The ids of the catalogue's families that a text names, a range such as CREATE-01…03 as each of its ids. */
function idsNamedIn(text: string): string[] {
  const named = new RegExp(`\\b(${families})-(\\d{2})(?:…(\\d{2}))?\\b`, 'g');
  return [...text.matchAll(named)].flatMap(([, family, from, to]) => {
    const ids = [];
    for (let n = Number(from); n <= Number(to ?? from); n += 1) ids.push(`${family}-${String(n).padStart(2, '0')}`);
    return ids;
  });
}

describe('the specification', () => {
  const sections = readSections(read(SPEC_PATH));

  test("every rule's source names a section of it, and a MUST rule rests on nothing else", () => {
    expect(rules.flatMap((rule) => ruleSourceProblems(rule, sections))).toEqual([]);
  });

  test('the source check finds a heading, an item or a quote that the specification lacks', () => {
    const problems = (source: string, level = 'must') => ruleSourceProblems({ id: 'X', level, source }, sections);
    expect(
      problems('Endpoints rule 4; Versioning 1-2; Authentication 1: a request without it is not a valid call'),
    ).toEqual([]);
    expect(problems('Zone fields: status')).toEqual([expect.stringContaining('names no heading')]);
    expect(problems('Versioning 1-3')).toEqual([expect.stringContaining('Versioning has no numbered item 3')]);
    expect(problems('Errors 1: answered 422')).toEqual([expect.stringContaining('"answered 422" is not in Errors 1')]);
    expect(problems('profile: 201 create')).toEqual([expect.stringContaining('a MUST needs the specification')]);
    expect(problems('profile: 201 create', 'should')).toEqual([]);
    expect(problems('profile: robustness, 404 unknown id', 'may')).toEqual([]);
  });

  test('the README names it by its title and version and links the copy in docs/', () => {
    const named = `${/^# (.+)$/m.exec(read(SPEC_PATH))?.[1]}, API version ${SPEC_VERSION}`;
    const readme = read('README.md');
    expect(readme.includes(named), `README.md does not say "${named}"`).toBe(true);
    expect(readme.includes(`](${SPEC_PATH})`), `README.md does not link ${SPEC_PATH}`).toBe(true);
  });
});

describe('written from the catalogue', () => {
  test(`the rule table in ${RULE_TABLE_FILE} is the catalogue's (regenerate with ${RULE_TABLE_COMMAND})`, () => {
    const page = read(RULE_TABLE_FILE);
    expect(page, `${RULE_TABLE_FILE}'s rule table is stale: run ${RULE_TABLE_COMMAND}`).toBe(withRuleTable(page));
  });

  test(`the README's settings table is the settings' definitions (regenerate with ${SETTINGS_TABLE_COMMAND})`, () => {
    const readme = read(SETTINGS_TABLE_FILE);
    expect(readme, `${SETTINGS_TABLE_FILE}'s settings table is stale: run ${SETTINGS_TABLE_COMMAND}`).toBe(
      withSettingsTable(readme),
    );
  });

  test('the settings table has one row per setting, with its default, and a changed default makes it stale', () => {
    const table = renderSettingsTable().split('\n');
    expect(table.slice(2).map((row) => /^\| `(\w+)` \|/.exec(row)?.[1])).toEqual(SETTINGS.map((doc) => doc.name));
    expect(table).toContain(
      '| `ZONES_TIMEOUT_MS` | `30000` | Time limit of one request, in milliseconds, from sending it to the last byte of the answer (a body still coming at the limit is cut off). |',
    );
    const changed = SETTINGS.map((doc) => (doc.name === 'ZONES_TIMEOUT_MS' ? { ...doc, default: '5000' } : doc));
    const readme = read(SETTINGS_TABLE_FILE);
    expect(withSettingsTable(readme, renderSettingsTable(changed))).not.toBe(readme);
  });

  test('a row shows whole sentences of the help, until they say enough; an abbreviation ends none', () => {
    expect(sentences('Header, e.g. Authorization. Scheme: http(s)://... or /... as it is. 0 means none.')).toEqual([
      'Header, e.g. Authorization.',
      'Scheme: http(s)://... or /... as it is.',
      '0 means none.',
    ]);
    const help = 'The credential. Required when ZONES_BASE_URL is set. Never printed or written to a report. Masked.';
    expect(summary(help)).toBe(
      'The credential. Required when ZONES_BASE_URL is set. Never printed or written to a report.',
    );
  });

  test('docs/kill-matrix.md has a row for every mutant and a column for every MUST rule (regenerate with npm run killmatrix)', () => {
    const lines = read('docs/kill-matrix.md').split('\n');
    const header = lines.indexOf(`| mutant | declares | ${mustIds.join(' | ')} |`);
    const table = lines.slice(header + 2, lines.indexOf('', header));
    const rows = table.map((row) => row.split(' | ').slice(0, 2).join(' | '));
    expect(
      header >= 0 ? rows : [],
      'docs/kill-matrix.md is stale: run npm run killmatrix (it runs the whole gallery)',
    ).toEqual(faults.map((fault) => `| ${fault.name} | ${fault.breaks.join(', ')}`));
  });
});

describe('checked against the catalogue', () => {
  test('every rule has a test in suites/', () => {
    const tested = new Set(
      textFiles(['suites']).flatMap((file) =>
        [...read(file).matchAll(/\brule(?:Test|Cases)\(\s*'([A-Z]+-\d{2})'/g)].map((match) => match[1]!),
      ),
    );
    const untested = rules.filter((rule) => !tested.has(rule.id));
    expect(untested.map((rule) => `${rule.id} has no ruleTest or ruleCases in suites/`)).toEqual([]);
  });

  test('every rule declares once what of the answers its test reads, which drift tells its verdict with', () => {
    const declared = READS.flatMap(([ids]) => ids.split(' '));
    expect([...declared].sort()).toEqual(rules.map((rule) => rule.id).sort());
    expect(READS.every(([, reads]) => reads.length > 0)).toBe(true);
  });

  test('the launcher and the gallery run every file in suites/, by the same pattern', () => {
    expect(read('selftest/gallery/all-suites.gallery.ts')).toContain(`import.meta.glob('../../${SUITE_FILES}'`);
    // A file the pattern misses would be a suite that never runs, or a helper in the wrong folder.
    const missed = readdirSync(join(projectRoot, 'suites'), { recursive: true, encoding: 'utf8' }).filter(
      (name) => !/^[^/]+\.test\.ts$/.test(name),
    );
    expect(missed, `files in suites/ that ${SUITE_FILES} does not run`).toEqual([]);
  });

  test('every MUST rule has at least one mutant in reference/faults.ts that breaks it', () => {
    const aimed = new Set(faults.flatMap((fault) => fault.breaks));
    expect(mustIds.filter((id) => !aimed.has(id)).map((id) => `${id} has no mutant`)).toEqual([]);
  });

  test('every sequence mutant declares only rules the model-based suite checks, the only suite that may catch it', () => {
    const checked = modelRules(readTargetConfig({}));
    const strays = faults
      .filter((fault) => fault.sequence)
      .flatMap((fault) =>
        fault.breaks.filter((id) => !checked.includes(id)).map((id) => `${fault.name} declares ${id}`),
      );
    expect(strays).toEqual([]);
    expect(
      faults.filter((fault) => fault.sequence).length,
      'no sequence mutant: nothing shows the model-based suite is needed',
    ).toBeGreaterThan(0);
  });

  test('every mutant declares only MUST rules of the catalogue', () => {
    const strays = faults.flatMap((fault) =>
      fault.breaks.filter((id) => !mustIds.includes(id)).map((id) => `${fault.name} declares ${id}`),
    );
    expect(strays).toEqual([]);
  });

  test('every rule id named in the docs and the code is in the catalogue', () => {
    const known = new Set(rules.map((rule) => rule.id));
    const unknown = textFiles(MAINTAINED).flatMap((file) =>
      idsNamedIn(read(file))
        .filter((id) => !known.has(id))
        .map((id) => `${file} names ${id}`),
    );
    expect(unknown).toEqual([]);
  });

  test("every link in the docs resolves in the clone: a file of the repository, and a #fragment to one of its headings' anchors", () => {
    const broken = textFiles(['README.md', 'CONTRIBUTING.md', 'docs'], ['.md']).flatMap((file) =>
      brokenLinks({ path: file, text: read(file) }, repository),
    );
    expect(broken).toEqual([]);
  });
});

/** The repository on disk, as a page's relative links reach it. */
const repository: Repository = {
  resolve: (fromPage, target) => {
    const path = relative(projectRoot, resolve(dirname(join(projectRoot, fromPage)), target));
    return path.startsWith('..') ? undefined : path;
  },
  exists: (path) => existsSync(join(projectRoot, path)),
  read,
};

describe('the link check', () => {
  const page = [
    '# Zones: the `npm test` command',
    '## Limits',
    '## Limits',
    '```sh',
    '# a comment, not a heading',
    '```',
    '## [Night over night](a.md), 2026-07!',
  ].join('\n');
  const files = new Map([
    ['a.md', page],
    ['b.md', ''],
    ['c.txt', ''],
  ]);
  const fake: Repository = {
    resolve: (_fromPage, target) => (target.startsWith('../') ? undefined : target),
    exists: (path) => files.has(path),
    read: (path) => files.get(path)!,
  };
  /** The links checked as if they stood in b.md, below a copy of a.md's headings. */
  const check = (links: string) => brokenLinks({ path: 'b.md', text: `${page}\n${links}` }, fake);

  test("gives a heading GitHub's anchor, numbering a repeated one, and skips code blocks", () => {
    expect(githubSlug('When the shop is down')).toBe('when-the-shop-is-down');
    expect([...headingAnchors(page)]).toEqual([
      'zones-the-npm-test-command',
      'limits',
      'limits-1',
      'night-over-night-2026-07',
    ]);
  });

  test('passes links that resolve and names each one that does not', () => {
    expect(
      check('[a](#limits-1) [b](a.md#night-over-night-2026-07) [c](c.txt#anything) [d](https://x.example/#no)'),
    ).toEqual([]);
    expect(check('[a](#nowhere) [b](a.md#limits-2) [c](d.md) [d](../outside.md)')).toEqual([
      'b.md links #nowhere: b.md has no heading #nowhere',
      'b.md links a.md#limits-2: a.md has no heading #limits-2',
      'b.md links d.md: no such file',
      'b.md links ../outside.md: no such file',
    ]);
  });
});
