// Zones a run leaves can't be missed: a run behind a shop that refuses their DELETEs prints them even
// with --quiet, puts them first in conformance.json, conformance.md and junit.xml with the command that
// deletes them, that command runs as printed, and a plain npm run sweep deletes them once the shop
// lets them go, the one ROBUST-06 renamed into other scripts among them. The same shop accepts
// ROBUST-04's 1 MiB create (a front with a larger body limit than the reference), and the reports of
// that run stay small (bounded-reports checks the parts that cut and keep bodies): the body is kept
// whole once, in reports/bodies/, and its curl command sends that file. One partial run (three rules)
// serves every test here; they go in order.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { settingsForStyle } from '../bin/reference-settings.ts';
import { shellWord, sweepCommand } from '../helpers/ownership/final-sweep.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { SUMMARY_MAX_BYTES } from '../helpers/report/job-summary.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import type { StoredZone } from '../reference/zone-store.ts';
import { type ChildRun, projectRoot, runCommand, runEntry } from './run-node.ts';
import { filesUnder } from './support/files-under.ts';
import {
  type DeleteRefusingFront,
  type Front,
  startDeleteRefusingFront,
  startLargeBodyFront,
} from './support/fronts.ts';

const TOKEN = 'shpat_selftest_leftovers_0123456789';
/** The bound for every report file of such a run. */
const REPORT_FILE_LIMIT = 256 * 1024;
const LEFT_BEHIND = /\*\*Zones left behind: \d+\.\*\*/;

const sha256Of = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');
/** How the npm script starts the sweep; the command printed must begin so in this checkout. */
const NPM_SWEEP = 'npm run sweep -- ';

/** A command line split into words as a POSIX shell splits it: blanks, single quotes and backslashes. */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quoted = false;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quoted) {
      if (c === "'") quoted = false;
      else word = (word ?? '') + c;
    } else if (c === "'") {
      quoted = true;
      word ??= '';
    } else if (c === '\\') {
      word = (word ?? '') + command[++i];
    } else if (/\s/.test(c)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}

describe('a run behind a shop that takes a 1 MiB create and refuses to let its zones go', () => {
  let reference: RunningReference;
  let front: DeleteRefusingFront;
  let large: Front;
  let env: Record<string, string>;
  let dir: string;
  let run: ChildRun;
  let report: ConformanceReport;
  /** What the shop still holds after the run: the reference started empty, so every one is the run's. */
  let left: StoredZone[];

  beforeAll(async () => {
    reference = await startReference({ token: TOKEN });
    // The preflight's own delete goes through; every later one, each test's and the final sweep's, is refused.
    front = await startDeleteRefusingFront(reference.url, { spare: 1 });
    large = await startLargeBodyFront(front.url);
    dir = mkdtempSync(join(tmpdir(), 'zc-leftovers-'));
    env = {
      ...settingsForStyle(reference.style, large.url, TOKEN),
      ZONES_REPORTS_DIR: dir,
      // The three example tests make the zones; the model-based suite would only add more of the same.
      ZONES_MODEL_RUNS: '0',
    };
    run = await runEntry('bin/conformance.ts', ['--quiet', '--rule', 'CREATE-02,ROBUST-06,ROBUST-04'], env);
    report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
    left = reference.backdoor.all();
  });
  afterAll(async () => {
    await large?.close();
    await front?.close();
    await reference?.close();
  });

  const printedCommand = () => /^ {4}(npm run sweep -- .*)$/m.exec(run.stdout)?.[1];

  test('the run left zones of each test, one of them renamed into other scripts', () => {
    expect(front.refused.length, run.stdout + run.stderr).toBeGreaterThan(0);
    expect(left.length).toBeGreaterThanOrEqual(3);
    expect(left.map((zone) => zone.name)).toContainEqual(expect.stringMatching(/^zc-\S+ .*区域/));
  });

  test('--quiet prints every zone left, and the one command that deletes them', () => {
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^verdict: INCOMPLETE /);
    expect(lines[1]).toBe(`LEFT BEHIND: ${left.length} zone(s) of this run are still on the shop`);
    for (const zone of left)
      expect(run.stdout).toContain(`\n  ${zone.id} "${zone.name}": DELETE answered 409 and the zone is still listed\n`);
    expect(printedCommand()).toMatch(/^npm run sweep -- --ledger \S+\.jsonl$/);
    expect(lines.filter((line) => line.startsWith(`    ${NPM_SWEEP}`))).toHaveLength(1);
  });

  test('conformance.json, conformance.md and junit.xml name each zone left first, with the same command', () => {
    const json = readFileSync(join(dir, 'conformance.json'), 'utf8');
    const report = JSON.parse(json) as ConformanceReport;
    // First among what the run found: before the target, the rules and everything else.
    expect(Object.keys(report).indexOf('leftBehind')).toBeLessThan(Object.keys(report).indexOf('target'));
    expect(report.leftBehind.map((zone) => zone.id).sort()).toEqual(left.map((zone) => zone.id).sort());
    for (const zone of report.leftBehind) expect(zone.removeWith).toBe(printedCommand());

    const markdown = readFileSync(join(dir, 'conformance.md'), 'utf8');
    const beforeSummary = markdown.slice(0, markdown.indexOf('| Target |'));
    expect(beforeSummary).toContain(`**Zones left behind: ${left.length}.**`);
    for (const zone of left) expect(beforeSummary).toContain(`- \`${zone.id}\` \`${zone.name}\`: `);
    expect(beforeSummary).toContain(`\`${printedCommand()}\``);

    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    const firstProperty = /<testsuite [^>]*>\s*<properties>\s*<property name="([^"]*)" value="([^"]*)"/.exec(junit);
    expect(firstProperty?.[1]).toMatch(/^left behind \S+$/);
    expect(firstProperty?.[2]).toContain(printedCommand());
  });

  test('--dry-run finds every zone left, the renamed one included, and only lists them', async () => {
    const listed = await runEntry('bin/sweep.ts', ['--dry-run'], env);
    expect(listed.code, listed.stderr).toBe(0);
    for (const zone of left) expect(listed.stdout).toContain(`would delete ${zone.id} ${zone.name} (`);
    expect(listed.stdout).not.toContain('carries another name');
    expect(reference.backdoor.all()).toHaveLength(left.length);
  });

  test('the printed command, run as printed, tries each zone of the run and names the ones the shop still refuses', async () => {
    const refusedBefore = front.refused.length;
    const args = shellWords(printedCommand()!.slice(NPM_SWEEP.length));
    // bin/sweep.ts through the launcher: what `npm run sweep --` runs (package.json).
    const sweep = await runEntry('bin/sweep.ts', args, env);
    expect(sweep.code, sweep.stdout + sweep.stderr).toBe(1);
    for (const zone of left) expect(sweep.stdout).toContain(`\n  left ${zone.id} ${zone.name}: `);
    expect(sweep.stdout).toContain(`deleted 0, could not delete ${left.length}`);
    expect(front.refused.length).toBeGreaterThanOrEqual(refusedBefore + left.length);
    expect(reference.backdoor.all()).toHaveLength(left.length);
  });

  test('a plain npm run sweep deletes them all once the shop lets them go, the renamed one included', async () => {
    front.letDeletesThrough();
    const plain = await runEntry('bin/sweep.ts', [], env);
    expect(plain.code, plain.stdout + plain.stderr).toBe(0);
    expect(plain.stdout).toContain(`deleted ${left.length}, could not delete 0`);
    expect(plain.stdout).not.toContain('known by their name alone');
    for (const zone of left) expect(reference.backdoor.stored(zone.id), zone.name).toBeUndefined();
  });

  const robust04 = () => report.rules.find((rule) => rule.id === 'ROBUST-04')!;
  const bodyFiles = () => filesUnder(join(dir, 'bodies'));

  // The zones left are gone by now; what follows reads the run's reports, and sends ROBUST-04's create again.
  test('the shop took the 1 MiB body and made a zone, which it kept: ROBUST-04 warns and the zone is left', () => {
    expect(robust04().status, run.stdout + run.stderr).toBe('warning');
    // Its zone by the name the shop's 201 gave back: the other tests' zones are left too.
    const created = robust04()
      .tests.flatMap((each) => each.evidence ?? [])
      .find((record) => record.line.startsWith('POST ') && record.line.endsWith(' -> 201'));
    const answer = /^< 201 .*\n\s*(\{.*\})$/m.exec(created?.shown ?? '')?.[1];
    expect(answer, 'the 201 of the 1 MiB create').toBeDefined();
    const made = (JSON.parse(answer!) as { zone: { name: string } }).zone.name;
    expect(report.leftBehind.map((zone) => zone.name)).toContain(made);
  });

  test('every report file is under 256 KiB, the kept bodies aside', () => {
    const reports = filesUnder(dir).filter((path) => !relative(dir, path).startsWith('bodies/'));
    for (const name of ['conformance.json', 'conformance.md', 'summary.md', 'junit.xml'])
      expect(reports).toContain(join(dir, name));
    expect(reports.filter((path) => path.includes('allure-results')).length).toBeGreaterThan(0);
    for (const path of reports) expect(statSync(path).size, relative(dir, path)).toBeLessThan(REPORT_FILE_LIMIT);
  });

  test('the 1 MiB body is kept whole once, by its hash, and every report names that file', () => {
    const [big, ...others] = bodyFiles().filter((path) => statSync(path).size > 1024 * 1024);
    expect(big, 'one body file of over 1 MiB').toBeDefined();
    expect(others).toEqual([]);
    const hash = sha256Of(readFileSync(big!)).slice(0, 12);
    expect(relative(dir, big!)).toBe(`bodies/${hash}.txt`);
    const named = `sha256 ${hash}; the whole body is bodies/${hash}.txt`;
    for (const name of ['conformance.json', 'conformance.md', 'junit.xml'])
      expect(readFileSync(join(dir, name), 'utf8'), name).toContain(named);
    const attachments = filesUnder(join(dir, 'allure-results')).filter((path) => !path.endsWith('.json'));
    expect(attachments.some((path) => readFileSync(path, 'utf8').includes(named))).toBe(true);
  });

  test('its curl command sends the kept file, and runs as printed', async () => {
    const curl = robust04()
      .tests.flatMap((each) => each.evidence ?? [])
      .map((record) => record.curl)
      .find((command) => command.startsWith('curl') && command.includes(' -X POST '))!;
    expect(curl).toMatch(/ --data-binary @'[^']*\/bodies\/[0-9a-f]{12}\.txt'$/);
    expect(curl.length).toBeLessThan(2048);
    const before = reference.backdoor.all().length;
    const replay = await runCommand('bash', ['-c', curl], { cwd: projectRoot, env: { ZONES_ACCESS_TOKEN: TOKEN } });
    // curl asks to continue before a body this long (Expect: 100-continue), so the 201 is the second status line.
    expect(replay.stdout, replay.stderr).toMatch(/^HTTP\/1\.1 201 /m);
    expect(reference.backdoor.all()).toHaveLength(before + 1);
  });

  // zones-conformance ci appends summary.md whole to GitHub's job summary; the GitLab job prints it to the log.
  test('summary.md, the job summary and the log, shows the zones left behind, under 512 KiB', () => {
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary).toMatch(LEFT_BEHIND);
    expect(summary).toContain('| ROBUST-04 | MAY | WARNING (MAY) |');
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_MAX_BYTES);
  });
});

describe('the command printed', () => {
  test('is the npm script where package.json runs the sweep, else the installed command', () => {
    const folder = mkdtempSync(join(tmpdir(), 'zc-sweep-command-'));
    expect(sweepCommand('reports/ledgers/r.jsonl', folder)).toBe(
      'npx zones-conformance sweep --ledger reports/ledgers/r.jsonl',
    );
    writeFileSync(join(folder, 'package.json'), JSON.stringify({ scripts: { sweep: 'zones-conformance sweep' } }));
    expect(sweepCommand('reports/ledgers/r.jsonl', folder)).toBe('npm run sweep -- --ledger reports/ledgers/r.jsonl');
  });

  test('quotes a ledger path so that a shell hands it over unchanged', async () => {
    const path = "my reports/it's $HOME/`x`.jsonl";
    const echoed = await runCommand('sh', ['-c', `printf %s ${shellWord(path)}`], { cwd: tmpdir() });
    expect(echoed.stdout).toBe(path);
    expect(shellWords(`--ledger ${shellWord(path)}`)).toEqual(['--ledger', path]);
  });
});
