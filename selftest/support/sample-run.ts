// A run's facts made by hand, for the self-tests of the report writers: outcomes as the collector
// would hand them over, with the clean-up and request counts of an uneventful run.
import type { TargetConfig } from '../../helpers/config.ts';
import type { TestOutcome } from '../../helpers/judging/verdict.ts';
import type { RunFacts } from '../../helpers/report/conformance-report.ts';

/** One test's outcome; the rule id is the first word of its title. */
export function sampleOutcome(
  title: string,
  state: TestOutcome['state'],
  more: Partial<TestOutcome> = {},
): TestOutcome {
  return {
    title,
    file: 'suites/x.test.ts',
    ruleId: title.split(' ')[0],
    state,
    requests: 1,
    cleanupRequests: 0,
    exchanges: [],
    throttled: 0,
    lagMs: [],
    durationMs: 1,
    ...more,
  };
}

export function sampleRunFacts(config: TargetConfig, outcomes: TestOutcome[]): RunFacts {
  return {
    config,
    runId: '20261122t000000-abcd',
    startedAt: new Date(0),
    finishedAt: new Date(1000),
    outcomes,
    runErrors: [],
    cleanup: { created: 0, deleted: 0, leftBehind: [] },
    requests: { preflight: 1, sweep: 0, throttled: 0 },
  };
}
