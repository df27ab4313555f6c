// A vitest reporter that keeps each test's outcome, per target, for the verdict. It runs in the main
// process and reads what the workers put in task.meta.
import { appendFileSync } from 'node:fs';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import '../harness/task-meta.ts';
import type { TestExchanges } from '../evidence/exchange-detail.ts';
import { emptyTally, requestsIn } from '../evidence/request-tally.ts';
import { classify, type TestOutcome } from '../judging/verdict.ts';
import { ruleIdOfTitle } from '../rules.ts';

export interface CollectedRun {
  /** By target, each test's outcome in the order the tests ran: one at a time, as declared. */
  outcomes: Map<string, TestOutcome[]>;
  /** Problems outside any one test: a suite file that failed to load, an unhandled error. */
  errors: string[];
}

export class OutcomeCollector implements Reporter {
  readonly run: CollectedRun = { outcomes: new Map(), errors: [] };

  constructor(
    private readonly onOutcome?: (target: string, outcome: TestOutcome) => void,
    /** Which target a test certified: its project's name, where each target has a project of its own. */
    private readonly targetOf: (testCase: TestCase) => string = (testCase) => testCase.project.name,
    /** Where each test's exchanges go, one line a test, when drift records them: one file, or one for each target. */
    private readonly exchangesFile?: string | ((target: string) => string),
  ) {}

  onTestCaseResult(testCase: TestCase): void {
    const outcome = outcomeOf(testCase);
    const target = this.targetOf(testCase);
    if (!this.run.outcomes.has(target)) this.run.outcomes.set(target, []);
    this.run.outcomes.get(target)!.push(outcome);
    const file = typeof this.exchangesFile === 'function' ? this.exchangesFile(target) : this.exchangesFile;
    if (file !== undefined) appendFileSync(file, `${JSON.stringify(testExchanges(outcome, testCase))}\n`);
    this.onOutcome?.(target, outcome);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    for (const module of testModules) {
      for (const error of module.errors()) this.run.errors.push(`${module.moduleId}: ${error.message}`);
    }
    for (const error of unhandledErrors) this.run.errors.push(`unhandled: ${error.message ?? String(error)}`);
  }
}

function testExchanges(outcome: TestOutcome, testCase: TestCase): TestExchanges {
  const records = testCase.meta().exchanges ?? [];
  return {
    title: outcome.title,
    ...(outcome.ruleId === undefined ? {} : { ruleId: outcome.ruleId }),
    state: outcome.state,
    exchanges: records.flatMap((record) =>
      record.detail === undefined ? [] : [{ ...record.detail, line: record.line, curl: record.curl }],
    ),
  };
}

function outcomeOf(testCase: TestCase): TestOutcome {
  const result = testCase.result();
  const meta = testCase.meta();
  const error = result.errors?.[0];
  const tally = { test: meta.tally ?? emptyTally(), cleanup: meta.cleanupTally ?? emptyTally() };
  const requests = requestsIn(tally.test);
  const ruleId = ruleIdOfTitle(testCase.name);
  const judged =
    ruleId === undefined
      ? { state: 'suite-error' as const, reason: 'suite defect: the title does not start with a catalogue rule id' }
      : classify({
          state: result.state,
          notVerified: meta.notVerified,
          skipNote: result.state === 'skipped' ? result.note : undefined,
          requests,
          sharedRequests: meta.sharedRequests,
          errorName: error?.name,
          errorMessage: error?.message,
        });
  const records = meta.exchanges ?? [];
  return {
    title: testCase.name,
    file: testCase.module.relativeModuleId,
    ruleId,
    ...judged,
    requests,
    cleanupRequests: requestsIn(tally.cleanup),
    tally,
    sharesRun: meta.sharedRequests !== undefined,
    exchanges: records.map((record) => record.line),
    // Whole exchanges and their curl commands are for what needs looking into, not for every pass; the data
    // kept for a drift run is in its own file, not here too.
    evidence:
      judged.state === 'passed' || records.length === 0 ? undefined : records.map(({ detail: _, ...record }) => record),
    checkedWith: meta.checkedWith,
    cleanup: meta.cleanup,
    throttled: tally.test.throttled + tally.cleanup.throttled,
    lagMs: meta.lagMs ?? [],
    durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
    ...(meta.outage ? { outage: meta.outage } : {}),
  };
}
