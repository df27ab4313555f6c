// Tests side by side (ZONES_CONCURRENCY=4) against a shop whose updates land on the zone created after
// the one addressed, once it holds four: beside each other the example tests' updates land on each
// other's zones, and they fail under rules whose defect they were not looking at. Each runs again
// alone, and the verdict is the one a run at 1 gives (docs/kill-matrix.md): only the model-based test
// of UPDATE-04 fails. Everything the shop was sent is still counted, and nothing is left behind. The
// shop sits behind the unruly proxy, which counts the requests on its side and answers 429s, so that
// the second pass is seen to keep the throttle's knowledge of Retry-After windows.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import type { ConformanceReport } from '../helpers/report/conformance-report.ts';
import { startReference } from '../reference/server.ts';
import { type ChildRun, runEntry, startEntry } from './run-node.ts';
import { startUnrulyProxy, type UnrulyProxy } from './support/unruly-proxy.ts';

/** A seed on which the model-based suite finds the mutant, as it does on any (its story at least). */
const SEED = '2';

interface SideBySideRun {
  proxy: UnrulyProxy;
  run: ChildRun;
  dir: string;
  report: ConformanceReport;
  close: () => Promise<void>;
}

async function certifySideBySide(fault?: string): Promise<SideBySideRun> {
  const reference = await startReference(fault ? { fault } : {});
  // The latency makes the tests' requests overlap: on a loaded machine, tests that start a few
  // milliseconds apart against a shop that answers in one could each be done before the next began.
  const proxy = await startUnrulyProxy({
    upstream: reference.url,
    rateLimit: { perSecond: 40, burst: 3 },
    latencyMs: 25,
  });
  const dir = mkdtempSync(join(tmpdir(), 'zc-again-alone-'));
  const run = await runEntry('bin/conformance.ts', ['--rule', 'UPDATE'], {
    ...settingsForStyle(reference.style, proxy.url, reference.token),
    ...bookingHooksForReference(reference.url),
    ZONES_REPORTS_DIR: dir,
    ZONES_CONCURRENCY: '4',
    ZONES_MODEL_SEED: SEED,
  });
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  return {
    proxy,
    run,
    dir,
    report,
    close: async () => {
      await proxy.close();
      await reference.close();
    },
  };
}

const ruleStatus = (report: ConformanceReport) =>
  Object.fromEntries(report.rules.filter((rule) => rule.id.startsWith('UPDATE')).map((r) => [r.id, r.status]));

describe('a shop where an update lands on the next zone, tests four at a time', () => {
  let sideBySide: SideBySideRun;
  beforeAll(async () => {
    sideBySide = await certifySideBySide('update-lands-on-next-zone');
  }, 120_000);
  afterAll(() => sideBySide?.close());

  test('the example tests that failed beside each other ran again alone, and the console says so', () => {
    const { run, report } = sideBySide;
    const again = report.requests.ranAgainAlone?.tests ?? [];
    expect(again.filter((title) => /^UPDATE-0[123] /.test(title)).length, run.stdout).toBeGreaterThan(0);
    expect(run.stdout).toMatch(/^ {2}-- \d+ test\(s\) failed or went unverified beside others: each runs again alone/m);
    // Beside others they are not marked failed, only as running again; alone, they pass.
    for (const title of again) {
      expect(run.stdout).toContain(`\n  again ${title}\n`);
      expect(run.stdout).not.toContain(`\n  FAIL  ${title}\n`);
      expect(run.stdout).toContain(`\n  pass  ${title}\n`);
    }
    expect(run.stdout).toMatch(/; \d+ test\(s\) ran again alone$/m);
  });

  test('the verdict is the one tests one at a time give: UPDATE-04 fails by its model-based test alone', () => {
    const { run, report } = sideBySide;
    expect(run.code, run.stderr).toBe(1);
    expect(ruleStatus(report)).toEqual({
      'UPDATE-01': 'passed',
      'UPDATE-02': 'passed',
      'UPDATE-03': 'passed',
      'UPDATE-04': 'failed',
    });
    const failed = report.rules.flatMap((rule) => rule.tests.filter((t) => t.state === 'failed').map((t) => t.title));
    expect(failed).toEqual([expect.stringMatching(/^UPDATE-04 .*: sequences of operations agree with the model$/)]);
  });

  test('every request the shop saw is counted, the tries beside others too, and none went inside a Retry-After window', () => {
    const { proxy, report } = sideBySide;
    expect(report.requests.ranAgainAlone?.requestsBeside).toBeGreaterThan(0);
    expect(report.requests.total).toBe(proxy.log.length);
    expect(proxy.violations).toBe(0);
  });

  test('each test has one Allure result, its run alone for those that ran again', () => {
    const results = join(sideBySide.dir, 'allure-results');
    const names = readdirSync(results)
      .filter((file) => file.endsWith('-result.json'))
      .map((file) => (JSON.parse(readFileSync(join(results, file), 'utf8')) as { name: string }).name);
    expect(names.length).toBe(new Set(names).size);
    const judged = sideBySide.report.rules
      .filter((rule) => rule.id.startsWith('UPDATE'))
      .flatMap((rule) => rule.tests.map((t) => t.title));
    for (const title of sideBySide.report.requests.ranAgainAlone?.tests ?? []) expect(names).toContain(title);
    expect(names.filter((name) => judged.includes(name)).length).toBe(judged.length);
  });

  test('nothing is left behind', () => {
    expect(sideBySide.report.cleanup.leftBehind).toEqual([]);
    expect(sideBySide.report.cleanup.created).toBe(sideBySide.report.cleanup.deleted);
  });
});

test('on a correct shop, tests four at a time all pass beside each other and none runs again', async () => {
  const correct = await certifySideBySide();
  try {
    // A --rule run is incomplete (exit 2) when every rule it selected passed.
    expect(correct.run.code, correct.run.stdout).toBe(2);
    expect(ruleStatus(correct.report)).toEqual({
      'UPDATE-01': 'passed',
      'UPDATE-02': 'passed',
      'UPDATE-03': 'passed',
      'UPDATE-04': 'passed',
    });
    expect(correct.report.requests.ranAgainAlone).toBeUndefined();
    expect(correct.run.stdout).not.toMatch(/runs again alone/);
    expect(correct.report.requests.total).toBe(correct.proxy.log.length);
  } finally {
    await correct.close();
  }
}, 120_000);

test('a Ctrl-C while tests run again alone stops them, judges none of them on their tries beside others, and leaves nothing behind', async () => {
  const reference = await startReference({ fault: 'update-lands-on-next-zone' });
  // Slow enough that the second pass is still under way a moment after it has begun.
  const proxy = await startUnrulyProxy({ upstream: reference.url, latencyMs: 150 });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'zc-again-alone-stop-'));
    const started = startEntry('bin/conformance.ts', ['--rule', 'UPDATE'], {
      ...settingsForStyle(reference.style, proxy.url, reference.token),
      ...bookingHooksForReference(reference.url),
      ZONES_REPORTS_DIR: dir,
      ZONES_CONCURRENCY: '4',
      ZONES_MODEL_RUNS: '0',
    });
    await expect
      .poll(() => started.printed.stdout, { timeout: 60_000, interval: 20 })
      .toMatch(/failed or went unverified beside others: each runs again alone/);
    started.child.kill('SIGINT');
    const run = await started.done;
    expect(run.code, run.stdout).toBe(130);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
    const again = report.requests.ranAgainAlone?.tests ?? [];
    expect(again.length).toBeGreaterThan(0);
    // What a test did beside others is never its verdict: the one under way finishes its run alone (and
    // passes, as alone it does on this shop); those the stop skipped are not verified.
    const states = again.map(
      (title) => report.rules.flatMap((rule) => rule.tests).find((t) => t.title === title)?.state,
    );
    expect(states.filter((state) => state !== 'passed' && state !== 'not-verified')).toEqual([]);
    expect(states).toContain('not-verified');
    // Nor does the HTML report show a try beside others: at most its result alone, none of them failed.
    const results = join(dir, 'allure-results');
    const shown = readdirSync(results)
      .filter((file) => file.endsWith('-result.json'))
      .map((file) => JSON.parse(readFileSync(join(results, file), 'utf8')) as { name: string; status: string })
      .filter((result) => again.includes(result.name));
    expect(shown.length).toBe(new Set(shown.map((result) => result.name)).size);
    expect(shown.filter((result) => result.status === 'failed')).toEqual([]);
    expect(report.cleanup.leftBehind).toEqual([]);
    const listed = await fetch(`${reference.url}/admin/api/2026-07/zones.json`, {
      headers: { 'X-Shopify-Access-Token': reference.token },
    });
    expect(((await listed.json()) as { zones: unknown[] }).zones).toEqual([]);
  } finally {
    await proxy.close();
    await reference.close();
  }
}, 120_000);
