// A real night's certificate judged again as the launcher would have judged it with other options
// (--rule, --baseline, --fail-on), without running the suites again: its tests' real outcomes go
// through the launcher's own functions, from the certificate to the files and the console. A whole
// run costs seconds of CPU; where the evidence is what the options do to the judgement and the
// outputs, one real night and these functions give it. One child run per exit path keeps the wiring
// of the options in bin/conformance.ts proven (selftest/cli-options.test.ts).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import type { TargetConfig } from '../../helpers/config.ts';
import { Secrets } from '../../helpers/evidence/secrets.ts';
import { TEST_DID_NOT_RUN, type TestOutcome } from '../../helpers/judging/verdict.ts';
import type { ConformanceReport } from '../../helpers/report/certificate.ts';
import { buildReport } from '../../helpers/report/conformance-report.ts';
import { printSummary } from '../../helpers/report/console-output.ts';
import { readBaseline, refuseOtherTarget } from '../../helpers/report/history.ts';
import { writeReports } from '../../helpers/report/write-reports.ts';
import { selectRules } from '../../helpers/runner/rule-selection.ts';
import { sampleRunFacts } from './sample-run.ts';

/**
 * Each test of the certificate as the collector handed it over; a test of a rule `selected` leaves out
 * is one vitest skipped, as a --rule run skips it. `edit` changes a test's outcome first.
 */
function outcomesOf(
  report: ConformanceReport,
  selected: (ruleId: string) => boolean = () => true,
  edit: (outcome: TestOutcome) => TestOutcome = (outcome) => outcome,
): TestOutcome[] {
  return report.rules.flatMap((rule) =>
    rule.tests.map((test): TestOutcome => {
      const { title, reason, requests, durationMs, exchanges, evidence, checkedWith } = test;
      const base = { title, file: 'suites/x.test.ts', ruleId: rule.id, requests, durationMs, exchanges };
      const counts = { cleanupRequests: 0, throttled: 0, lagMs: [] };
      if (!selected(rule.id)) return { ...base, ...counts, state: 'not-verified', reason: TEST_DID_NOT_RUN };
      // Below MUST a failed test is judged a warning: the collector's outcome was "failed".
      const state = test.state === 'warning' ? 'failed' : test.state;
      return edit({ ...base, ...counts, state, reason, evidence, checkedWith });
    }),
  );
}

export interface JudgedAgain {
  report: ConformanceReport;
  /** The reports folder the launcher's writer filled. */
  dir: string;
  /** What the launcher's summary printed, a line an entry. */
  printed: string[];
}

/**
 * `tonight` judged with these options, through what bin/conformance.ts does with them once the tests
 * are over: the baseline read and checked against the target, the certificate built with the selection
 * and the comparison, the reports written, the summary printed (quiet or not).
 */
export function judgeAgain(
  tonight: ConformanceReport,
  config: TargetConfig,
  options: {
    rule?: string;
    baseline?: string;
    failOn?: 'new';
    quiet?: boolean;
    edit?: (outcome: TestOutcome) => TestOutcome;
  },
): JudgedAgain {
  const selected = options.rule === undefined ? undefined : selectRules(options.rule);
  const baseline = options.baseline === undefined ? undefined : readBaseline(options.baseline);
  if (baseline) refuseOtherTarget(baseline, config);
  const outcomes = outcomesOf(tonight, (id) => !selected || selected.includes(id), options.edit);
  const report = buildReport({
    ...sampleRunFacts(config, outcomes),
    selection: options.rule !== undefined && selected ? { rule: options.rule, rules: selected } : undefined,
    baseline: baseline && { baseline, failOn: options.failOn ?? null },
  });
  const dir = mkdtempSync(join(tmpdir(), 'zc-judged-'));
  const secrets = new Secrets(config);
  const files = writeReports(report, { reportsDir: dir, secrets, warn: () => {}, baseline: baseline?.night });
  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  try {
    printSummary(report, files, secrets, options.quiet === true);
  } finally {
    log.mockRestore();
  }
  return { report, dir, printed };
}
