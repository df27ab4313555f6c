// summary.md leads with the answer (issue 25): the verdict, the rule grid with its last nights, what
// changed since the night before, then the failures, and the zones left behind last. From a report
// and a history made by hand, without a run.
import { describe, expect, test } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { buildReport, type RunFacts } from '../helpers/report/conformance-report.ts';
import { type Baseline, compare, type Night, nightOf, type TargetHistory } from '../helpers/report/history.ts';
import { renderJobSummary } from '../helpers/report/job-summary.ts';
import { rules } from '../helpers/rules.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';

const TOKEN = 'shpat_selftest_job_summary_0123456789';
const PATH = 'reports/conformance-history.jsonl';

/** Tonight: every rule passed but UPDATE-01, which failed; one zone left behind. */
function tonight(launcher: Pick<RunFacts, 'stoppedBy' | 'baseline'> = {}): ConformanceReport {
  const config = readTargetConfig({ ZONES_BASE_URL: 'https://shop.example', ZONES_ACCESS_TOKEN: TOKEN });
  const outcomes = rules.map((rule) =>
    rule.id === 'UPDATE-01'
      ? sampleOutcome(`${rule.id} ${rule.title}`, 'failed', { reason: 'the name stayed as it was' })
      : sampleOutcome(`${rule.id} ${rule.title}`, 'passed'),
  );
  const facts = sampleRunFacts(config, outcomes);
  facts.cleanup.leftBehind = [
    { id: '42', name: 'zc-left', reason: 'DELETE answered 409', removeWith: 'npm run sweep -- --yes' },
  ];
  return buildReport({ ...facts, ...launcher });
}

/** An earlier night of the same shop: every rule passed. */
function passedNight(report: ConformanceReport, runId: string, startedAt: string): Night {
  const night = nightOf(report);
  return {
    ...night,
    runId,
    startedAt,
    verdict: 'conformant',
    rules: Object.fromEntries(rules.map((rule) => [rule.id, 'passed'])),
  };
}

function withHistory(report: ConformanceReport, earlier: Night[]): TargetHistory {
  return { path: PATH, nights: [...earlier, nightOf(report)], tonightKept: true };
}

/** Where each of the summary's parts starts: they must come in this order. */
function order(summary: string, marks: string[]): number[] {
  return marks.map((mark) => {
    const at = summary.indexOf(mark);
    expect(at, `"${mark}" is in the summary`).toBeGreaterThanOrEqual(0);
    return at;
  });
}

describe('the job summary', () => {
  test('leads with the verdict, then the rules with their nights, the change since last night, the failures, and the zones left last', () => {
    const report = tonight();
    const history = withHistory(report, [
      passedNight(report, 'run-1', '2026-11-20T02:00:00.000Z'),
      passedNight(report, 'run-2', '2026-11-21T02:00:00.000Z'),
    ]);
    const summary = renderJobSummary(report, history);
    const at = order(summary, [
      '# Conformance certificate: NON-CONFORMANT',
      '**non-conformant** (exit code 1): MUST 17 passed, 1 failed, 0 not verified',
      '| Rule | Level | Status | Last nights |',
      '## Since the last night',
      '## What broke, warned or could not be checked',
      '**Zones left behind: 1.**',
    ]);
    expect(at).toEqual([...at].sort((a, b) => a - b));
    expect(summary).toContain('| UPDATE-01 | MUST | **FAILED** | ✓✓✗ |');
    expect(summary).toContain('| AUTH-01 | MUST | passed | ✓✓✓ |');
    expect(summary).toContain('- UPDATE-01 (MUST): passed → failed');
    expect(summary).toContain('the night of 2026-11-21T02:00:00.000Z (run run-2, conformant)');
    // The verdict line says zones were left, so that nobody misses them at the end.
    expect(summary).toMatch(/^\*\*non-conformant\*\*.*\*\*1 zone\(s\) left behind\*\*/m);
  });

  test('shows at most the last 10 nights', () => {
    const report = tonight();
    const earlier = Array.from({ length: 14 }, (_, n) =>
      passedNight(report, `run-${n}`, `2026-11-${String(n + 1).padStart(2, '0')}T02:00:00.000Z`),
    );
    expect(renderJobSummary(report, withHistory(report, earlier))).toContain(
      '| UPDATE-01 | MUST | **FAILED** | ✓✓✓✓✓✓✓✓✓✗ |',
    );
  });

  test('says "first night" when the history holds no earlier night of the target', () => {
    const report = tonight();
    const summary = renderJobSummary(report, withHistory(report, []));
    expect(summary).toContain(`## Since the last night\n\nFirst night: ${PATH} holds no earlier night of this target`);
    // Tonight alone: no strip beside the status, which says it already.
    expect(summary).toContain('| Rule | Level | Status |\n');
  });

  test('with --baseline, shows the comparison with it instead of the history', () => {
    const report = tonight();
    const baseline = readBaselineOf(report, () => 'passed');
    report.comparison = compare(report, baseline, null);
    const summary = renderJobSummary(
      report,
      withHistory(report, [passedNight(report, 'run-1', '2026-11-20T02:00:00.000Z')]),
    );
    expect(summary).toContain('## Since the baseline');
    expect(summary).not.toContain('## Since the last night');
    expect(summary).toMatch(/\| new failures \| UPDATE-01 \(MUST\) \|/);
  });

  test('with --baseline, lists a rule not verified then and passed now as newly verified, whatever the exit code rests on', () => {
    const report = tonight();
    // UPDATE-01 failed then as now; DELETE-02 could not be checked then and passed tonight.
    const baseline = readBaselineOf(report, (id) =>
      id === 'UPDATE-01' ? 'failed' : id === 'DELETE-02' ? 'not-verified' : 'passed',
    );
    report.comparison = compare(report, baseline, null);
    expect(report.comparison.newlyVerified.map((rule) => rule.id)).toEqual(['DELETE-02']);
    const summary = renderJobSummary(report);
    expect(summary).toContain('| newly verified | DELETE-02 (MUST) |');
    expect(summary).toContain('| still failing | UPDATE-01 (MUST) |');
    // The verdict's exit code without --fail-on; with it, a rule newly verified is no new failure.
    expect(report.comparison.exitCode).toBe(1);
    expect(compare(report, baseline, 'new').exitCode).toBe(0);
  });

  test("of a partial run, shows tonight's night of a rule left out as not selected, not as not verified", () => {
    const report = tonight();
    report.selection = { rule: 'UPDATE', rules: rules.filter((r) => r.id.startsWith('UPDATE-')).map((r) => r.id) };
    for (const rule of report.rules) if (!report.selection.rules.includes(rule.id)) rule.status = 'not-verified';
    const history: TargetHistory = {
      path: PATH,
      nights: [passedNight(report, 'run-1', '2026-11-20T02:00:00.000Z')],
      tonightKept: false,
    };
    const summary = renderJobSummary(report, history);
    expect(summary).toContain('| AUTH-01 | MUST | not selected | ✓· |');
    expect(summary).toContain('| UPDATE-01 | MUST | **FAILED** | ✓✗ |');
    expect(summary).toContain('· not selected tonight');
  });

  test('of a run stopped by a signal with --fail-on new, the comparison names the exit code the process left with', () => {
    // UPDATE-01 failed last night too: --fail-on new alone would give 0, the signal gives 130.
    const baseline = readBaselineOf(tonight(), (id) => (id === 'UPDATE-01' ? 'failed' : 'passed'));
    const summary = renderJobSummary(tonight({ stoppedBy: 'SIGINT', baseline: { baseline, failOn: 'new' } }));
    expect(summary).toContain('## Since the baseline');
    expect(summary).toContain('Exit code 130, stopped by SIGINT.');
    expect(summary).not.toContain('by --fail-on new');
  });

  test('of a run stopped by a signal, says so under the verdict with the exit code the process left with', () => {
    const report = tonight({ stoppedBy: 'SIGINT' });
    const summary = renderJobSummary(report);
    expect(summary).toContain('**non-conformant** (exit code 130, stopped by SIGINT)');
    const at = order(summary, [
      '**The run was stopped by SIGINT before every test had run; exit code 130.**',
      '## Rules',
    ]);
    expect(at[0]).toBeLessThan(at[1]!);
  });

  test('of a history it could not write, says so and still compares with the night before', () => {
    const report = tonight();
    const history: TargetHistory = {
      path: PATH,
      nights: [passedNight(report, 'run-1', '2026-11-20T02:00:00.000Z')],
      tonightKept: false,
      problem: { during: 'writing', message: 'EROFS: read-only file system' },
    };
    const summary = renderJobSummary(report, history);
    expect(summary).toContain(
      `The nights history ${PATH} could not be written, so tonight is not kept: EROFS: read-only file system.`,
    );
    expect(summary).toContain('- UPDATE-01 (MUST): passed → failed');
  });
});

/** A baseline as readBaseline makes it, from a report of the same shop, each rule with the status given. */
function readBaselineOf(report: ConformanceReport, statusOf: (id: string) => Night['rules'][string]): Baseline {
  return {
    path: 'last-night/conformance.json',
    night: {
      runId: 'run-0',
      startedAt: '2026-11-19T02:00:00.000Z',
      verdict: 'conformant',
      target: nightOf(report).target,
      rules: Object.fromEntries(rules.map((rule) => [rule.id, statusOf(rule.id)])),
      suiteDefects: [],
    },
  };
}
