// The robustness probes (MAY, suites/robustness.test.ts) against a shop with every lax habit
// (selftest/support/lax-front.ts): each probe can fail, as a warning that never makes the run
// non-conformant; and no probe leaves a zone behind that a mark proves the run's, nor deletes one that
// nothing proves the run's. That a miss is a warning in every report and never changes the verdict or
// the exit code of a whole run, one-story.test.ts shows, on a shop with one lax habit.
import { mkdtempSync, readFileSync } from 'node:fs';
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
