// Reports stay readable and small whatever a shop accepts: a body past 8 KiB is shown cut, with its size
// and hash, and kept whole once, masked, in reports/bodies/; the curl command sends that file; the job
// summary keeps the verdict, the rules and the zones left behind, and cuts only the detail between them.
// The run: a shop that accepts ROBUST-04's 1 MiB create (a front with a larger body limit than the
// reference) and refuses to delete the zone it made (a second front), so the zone is left behind.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { settingsForStyle } from '../bin/reference-settings.ts';
import { readTargetConfig } from '../helpers/config.ts';
import { BodyFiles, cutBody, SHOWN_BODY_BYTES, shownBody } from '../helpers/evidence/bounded-body.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { buildReport, markdownParts, renderMarkdown } from '../helpers/report/conformance-report.ts';
import { renderJobSummary, SUMMARY_MAX_BYTES } from '../helpers/report/job-summary.ts';
import { rules } from '../helpers/rules.ts';
import { concludeTarget, newRunId, prepareTarget } from '../helpers/runner/certify.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type ChildRun, projectRoot, runCommand, runEntry } from './run-node.ts';
import { filesUnder } from './support/files-under.ts';
import {
  type DeleteRefusingFront,
  type Front,
  startDeleteRefusingFront,
  startLargeBodyFront,
} from './support/fronts.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';

const TOKEN = 'shpat_selftest_bounded_reports_0123456789';
/** The bound for every report file of such a run. */
const REPORT_FILE_LIMIT = 256 * 1024;
const LEFT_BEHIND = /\*\*Zones left behind: \d+\.\*\*/;

const sha256Of = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe('a body too long to show', () => {
  test('is shown as its first 8 KiB, never half a character, with its size and hash', () => {
    // Two bytes a character, so that the limit falls inside one.
    const text = `x${'é'.repeat(SHOWN_BODY_BYTES)}`;
    const cut = cutBody(text)!;
    expect(Buffer.byteLength(cut.head)).toBe(SHOWN_BODY_BYTES - 1);
    expect(text.startsWith(cut.head)).toBe(true);
    expect(cut).toMatchObject({ bytes: Buffer.byteLength(text), sha256: sha256Of(text).slice(0, 12) });
    expect(shownBody(text)).toBe(
      `${cut.head}\n[cut: the first 8 KiB of ${cut.bytes} bytes shown; sha256 ${cut.sha256}; the whole body is bodies/${cut.sha256}.txt in the reports folder]`,
    );
    const fits = 'y'.repeat(SHOWN_BODY_BYTES);
    expect(cutBody(fits)).toBeUndefined();
    expect(shownBody(fits)).toBe(fits);
  });

  test('is kept whole in the reports folder, masked, in a file named by its hash', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zc-bodies-'));
    const bodies = new BodyFiles(dir, new Secrets({ token: TOKEN, authHeader: 'X-Shopify-Access-Token' }));
    const kept = bodies.keep(`{"echo":"${TOKEN}","pad":"${' '.repeat(20_000)}"}`);
    const whole = readFileSync(kept.path!, 'utf8');
    expect(whole).not.toContain(TOKEN);
    expect(whole).toContain('"echo":"<redacted>"');
    expect(kept.text).toBe(whole);
    expect(relative(dir, kept.path!)).toBe(`bodies/${sha256Of(whole).slice(0, 12)}.txt`);
    expect(bodies.keep('{"short":true}')).toEqual({ text: '{"short":true}' });
  });

  test('past the cap in files or bytes is not kept whole, but for a request body; the first ones stay', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zc-bodies-'));
    const secrets = new Secrets({ token: TOKEN, authHeader: 'X-Shopify-Access-Token' });
    const long = (n: number) => `${n}`.repeat(SHOWN_BODY_BYTES + 1);
    const byCount = new BodyFiles(dir, secrets, { files: 2, bytes: 1024 * 1024 });
    const kept = [1, 2, 3, 1].map((n) => byCount.keep(long(n)).path);
    expect(kept.map((path) => path !== undefined)).toEqual([true, true, false, true]);
    expect(byCount.keep(long(4), true).path, 'a request body past the cap').toBeDefined();
    const byBytes = new BodyFiles(mkdtempSync(join(tmpdir(), 'zc-bodies-')), secrets, { files: 10, bytes: 12_000 });
    expect(byBytes.keep(long(5)).path).toBeDefined();
    expect(byBytes.keep(long(6)).path, 'past 12,000 bytes').toBeUndefined();
    expect(readdirSync(join(dir, 'bodies')).filter((name) => name.endsWith('.txt'))).toHaveLength(3);
  });

  test("a run past the cap says in the certificate's notes how many bodies were not kept whole", async () => {
    const shop = await startReference({ token: TOKEN });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'zc-bodies-'));
      const config = readTargetConfig({ ...settingsForStyle(shop.style, shop.url, TOKEN), ZONES_REPORTS_DIR: dir });
      const bodies = new BodyFiles(dir, new Secrets(config), { files: 1, bytes: 1024 * 1024 });
      // Three bodies, the last answered twice: one kept, two not.
      for (const n of [1, 2, 3, 3]) bodies.keep(`${n}`.repeat(SHOWN_BODY_BYTES + 1));
      const runId = newRunId();
      const target = await prepareTarget({ name: 'target', config }, { runId });
      const report = await concludeTarget(
        target,
        { outcomes: new Map(), errors: [] },
        { runId, startedAt: new Date() },
      );
      expect(report.notes).toContain(
        '2 more bodies over 8 KiB not kept whole: the cap of 200 files and 50 MiB in bodies/ was reached, so the file a cut body names may not be there',
      );
      expect(renderMarkdown(report)).toContain('- 2 more bodies over 8 KiB not kept whole');
    } finally {
      await shop.close();
    }
  });
});

describe('the job summary of a certificate too long for it', () => {
  test('keeps the verdict, the zones left behind and every rule, and cuts the detail between sections', () => {
    const config = readTargetConfig({ ZONES_BASE_URL: 'https://shop.example', ZONES_ACCESS_TOKEN: TOKEN });
    // Three hundred failed tests, each with two 8 KiB exchanges: some 5 MB of detail.
    const record = {
      line: 'POST https://shop.example/zones.json [valid] -> 201',
      shown: 'z'.repeat(8 * 1024),
      curl: 'curl',
    };
    const outcomes = rules.map((rule) => sampleOutcome(`${rule.id} ${rule.title}`, 'passed'));
    for (let n = 0; n < 300; n++)
      outcomes.push(
        sampleOutcome(`CREATE-01 case ${n}`, 'failed', { reason: `case ${n} failed`, evidence: [record, record] }),
      );
    const facts = sampleRunFacts(config, outcomes);
    facts.cleanup.leftBehind = [
      { id: '42', name: 'zc-left', reason: 'DELETE answered 409', removeWith: 'npm run sweep -- --yes' },
    ];
    const report = buildReport(facts);

    const whole = renderMarkdown(report);
    const summary = renderJobSummary(report);
    expect(Buffer.byteLength(whole)).toBeGreaterThan(4 * SUMMARY_MAX_BYTES);
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(summary).toMatch(/^# Conformance certificate: NON-CONFORMANT\n/);
    expect(summary).toMatch(LEFT_BEHIND);
    for (const rule of rules) expect(summary).toMatch(new RegExp(`^\\| ${rule.id} \\| `, 'm'));
    expect(summary).toContain('| CREATE-01 | MUST | **FAILED** |');
    // What it shows of the detail is conformance.md's, up to the end of a section; the zones left
    // behind come last, after the cut, whole.
    const [shown, note] = summary.split('\n*The job summary stops here, at 512 KiB: ');
    const detailShown = shown!.slice(shown!.indexOf('## What broke, warned or could not be checked'));
    expect(whole).toContain(detailShown);
    expect(shown).toContain('- CREATE-01 case 0: FAILED');
    expect(shown).not.toContain('- CREATE-01 case 299: FAILED');
    expect(note).toMatch(
      /^\d+ more section\(s\) of detail are in conformance\.md, in the reports artifact\.\*\n\n\*\*Zones left behind: 1\.\*\*/,
    );
  });

  test('holds every section of the certificate after the answer when that fits', () => {
    const config = readTargetConfig({ ZONES_BASE_URL: 'https://shop.example', ZONES_ACCESS_TOKEN: TOKEN });
    const report = buildReport(sampleRunFacts(config, [sampleOutcome('CREATE-01 x', 'failed', { reason: 'no' })]));
    const summary = renderJobSummary(report);
    expect(summary).not.toContain('The job summary stops here');
    for (const block of markdownParts(report).detail) expect(summary).toContain(block.join('\n'));
  });
});

describe('a run against a shop that accepts a 1 MiB create and keeps the zone it made', () => {
  let reference: RunningReference;
  let refusing: DeleteRefusingFront;
  let large: Front;
  let dir: string;
  let env: Record<string, string>;
  let run: ChildRun;
  let report: ConformanceReport;

  beforeAll(async () => {
    reference = await startReference({ token: TOKEN });
    // The preflight's own delete goes through; the fixture's and the final sweep's are refused.
    refusing = await startDeleteRefusingFront(reference.url, { spare: 1 });
    large = await startLargeBodyFront(refusing.url);
    dir = mkdtempSync(join(tmpdir(), 'zc-bounded-'));
    env = { ...settingsForStyle(reference.style, large.url, TOKEN), ZONES_REPORTS_DIR: dir, ZONES_MODEL_RUNS: '0' };
    run = await runEntry('bin/conformance.ts', ['--rule', 'ROBUST-04'], env);
    report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  });
  afterAll(async () => {
    await large?.close();
    await refusing?.close();
    await reference?.close();
  });

  const robust04 = () => report.rules.find((rule) => rule.id === 'ROBUST-04')!;
  const bodyFiles = () => filesUnder(join(dir, 'bodies'));

  test('the shop took the body and made a zone, which it kept: ROBUST-04 warns and the zone is left', () => {
    expect(robust04().status, run.stdout + run.stderr).toBe('warning');
    expect(report.leftBehind.length).toBeGreaterThan(0);
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
