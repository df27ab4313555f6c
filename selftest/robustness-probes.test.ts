// The robustness probes (MAY, suites/robustness.test.ts) against a shop with one lax habit and against
// one with every habit (selftest/support/lax-front.ts). A miss is a warning in every report and never
// changes the verdict or the exit code; each probe can fail; and no probe leaves a zone behind that a
// mark proves the run's, nor deletes one that nothing proves the run's.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { rules } from '../helpers/rules.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type ChildRun, runEntry } from './run-node.ts';
import { type LaxFront, type LaxHabit, NAMELESS_PLACEHOLDER, startLaxFront } from './support/lax-front.ts';

const TOKEN = 'shpat_robust_0123456789abcdef';
const probes = rules.filter((rule) => rule.level === 'may').map((rule) => rule.id);

interface LaxRun {
  reference: RunningReference;
  front: LaxFront;
  dir: string;
  run: ChildRun;
  report: ConformanceReport;
}

async function certifyBehindFront(
  habits: LaxHabit[],
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<LaxRun> {
  const reference = await startReference({ token: TOKEN });
  const front = await startLaxFront(reference.url, new Set(habits));
  const dir = mkdtempSync(join(tmpdir(), 'zc-robust-'));
  const run = await runEntry('bin/conformance.ts', args, {
    ...settingsForStyle(reference.style, front.url, TOKEN),
    ...bookingHooksForReference(reference.url),
    ZONES_REPORTS_DIR: dir,
    ...env,
  });
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  return { reference, front, dir, run, report };
}

async function stop(lax: LaxRun | undefined): Promise<void> {
  await lax?.front.close();
  await lax?.reference.close();
}

const statusOf = (report: ConformanceReport, id: string) => report.rules.find((rule) => rule.id === id)?.status;

describe('a correct shop but for a 500 to an unknown filter value', () => {
  let lax: LaxRun;
  beforeAll(async () => {
    // A whole run, so that the verdict rests on every MUST rule; their example tests are enough for that,
    // and the model-based suite, which never sends an unknown filter value, is left out.
    lax = await certifyBehindFront(['unknown-filter-fails'], [], { ZONES_MODEL_RUNS: '0' });
  });
  afterAll(() => stop(lax));

  test('is conformant with exit 0: ROBUST-05 is a warning, and the reference passes every other probe', () => {
    const { run, report } = lax;
    expect([run.code, report.verdict]).toEqual([0, 'conformant']);
    expect(report.summary.must).toEqual({ passed: 18, failed: 0, notVerified: 0 });
    expect(report.summary.may).toEqual({ passed: probes.length - 1, warnings: 1, notVerified: 0 });
    expect(probes.map((id) => [id, statusOf(report, id)])).toEqual(
      probes.map((id) => [id, id === 'ROBUST-05' ? 'warning' : 'passed']),
    );
    expect(report.cleanup.leftBehind).toEqual([]);
  });

  test('the console shows a warning, not a failure', () => {
    const { stdout } = lax.run;
    expect(stdout).toMatch(/^ {2}warn {2}ROBUST-05 /m);
    expect(stdout).toMatch(/^WARNING ROBUST-05 /m);
    expect(stdout).not.toMatch(/^FAILED/m);
    expect(stdout).toMatch(/verdict: CONFORMANT .*MAY 1 warning\(s\)/);
  });

  test('conformance.md and junit.xml show a warning, not a failure', () => {
    const markdown = readFileSync(join(lax.dir, 'conformance.md'), 'utf8');
    expect(markdown).toMatch(/^# Conformance certificate: CONFORMANT/);
    expect(markdown).toContain('| ROBUST-05 | MAY | WARNING (MAY) |');
    expect(markdown).toContain('### ROBUST-05 WARNING (MAY)');
    expect(markdown).toMatch(/^- ROBUST-05 .*: WARNING \(MAY, does not change the verdict\)$/m);
    const junit = readFileSync(join(lax.dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites [^>]*failures="0"/);
    expect(junit).toMatch(
      /classname="MAY\.ROBUST-05"[^>]*>\s*<properties>\s*<property name="outcome" value="MAY warning"\/>\s*<\/properties>\s*<system-out>WARNING \(MAY, does not change the verdict\)/,
    );
  });

  test('the Allure results give the probe the outcome MAY warning, passed as a warning is, and no test another outcome', () => {
    const results = readdirSync(join(lax.dir, 'allure-results'))
      .filter((file) => file.endsWith('-result.json'))
      .map((file) => JSON.parse(readFileSync(join(lax.dir, 'allure-results', file), 'utf8')))
      .map((result: { status: string; labels: { name: string; value: string }[] }) => ({
        status: result.status,
        rule: result.labels.find((label) => label.name === 'rule')?.value,
        outcome: result.labels.find((label) => label.name === 'outcome')?.value,
        severity: result.labels.find((label) => label.name === 'severity')?.value,
      }));
    expect(results.length).toBeGreaterThan(40);
    expect(results.filter((result) => result.outcome !== undefined)).toEqual([
      { status: 'passed', rule: 'ROBUST-05', outcome: 'MAY warning', severity: 'minor' },
    ]);
  });
});

describe('a shop with every lax habit', () => {
  let lax: LaxRun;
  beforeAll(async () => {
    lax = await certifyBehindFront(
      [
        'lenient-json',
        'coerces-names',
        'empty-name-stored-quietly',
        'unknown-id-succeeds',
        'no-size-limit',
        'unknown-filter-fails',
        'ascii-names',
        'first-coverage-sticks',
      ],
      ['--rule', 'ROBUST'],
      // Four coverages, one per concurrent update of ROBUST-07, so that any mix of two shows.
      { ZONES_COVERAGE_SAMPLES: '[{"n":1},{"n":2},{"n":3},{"n":4}]' },
    );
  });
  afterAll(() => stop(lax));

  test('fails every probe, each as a warning: the run is incomplete (no MUST rule ran), never non-conformant', () => {
    const { run, report } = lax;
    expect(probes.map((id) => [id, statusOf(report, id)])).toEqual(probes.map((id) => [id, 'warning']));
    expect(report.summary.must.failed).toBe(0);
    expect([run.code, report.verdict]).toEqual([2, 'incomplete']);
    expect(report.suiteErrors).toEqual([]);
  });

  test('every zone a mark proves the run made is gone; the nameless one is reported and left alone', async () => {
    const { reference, report } = lax;
    expect(report.cleanup.leftBehind).toEqual([]);
    const nameless = report.rules
      .find((rule) => rule.id === 'ROBUST-02')
      ?.tests.find((t) => t.title.endsWith(': an empty name'));
    expect(nameless?.reason).toMatch(/zones without a name appeared .* left on the shop/);
    const listed = await fetch(`${reference.url}/admin/api/2026-07/zones.json`, {
      headers: { 'X-Shopify-Access-Token': TOKEN },
    });
    const { zones } = (await listed.json()) as { zones: { name: string }[] };
    expect(zones.map((zone) => zone.name)).toEqual([NAMELESS_PLACEHOLDER]);
  });
});
