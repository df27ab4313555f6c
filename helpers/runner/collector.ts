// A vitest reporter that keeps each test's outcome, per target, for the verdict. It runs in the main
// process and reads what the workers put in task.meta.
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import '../harness/task-meta.ts';
import { ruleIdOfTitle } from '../rules.ts';
import { emptyTally } from '../target/request-tally.ts';
import { classify, type TestOutcome } from './verdict.ts';

export interface CollectedRun {
  outcomes: Map<string, TestOutcome[]>;
  /**
   * By target, what each test that ran again alone did beside others before: not judged, but the
   * shop saw its requests, so they are counted.
   */
  superseded: Map<string, TestOutcome[]>;
  /** When the second pass began, if one did: every result a test wrote before then is a try beside others. */
  againAloneSince?: Date;
  /** Problems outside any one test: a suite file that failed to load, an unhandled error. */
  errors: string[];
}

export class OutcomeCollector implements Reporter {
  readonly run: CollectedRun = { outcomes: new Map(), superseded: new Map(), errors: [] };
  /** In the second pass: by target, the titles that run again alone. */
  private again: ReadonlyMap<string, ReadonlySet<string>> | undefined;

  constructor(
    private readonly onOutcome?: (target: string, outcome: TestOutcome) => void,
    /** Which target a test certified: its project's name, where each target has a project of its own. */
    private readonly targetOf: (testCase: TestCase) => string = (testCase) => testCase.project.name,
  ) {}

  /**
   * From now on the results are those of the tests run again alone, `again` by target. What each of
   * them did beside others goes at once: until its run alone is in, it is not verified, so a run
   * stopped before then never judges a test on its try beside others.
   */
  startAgainAlone(again: ReadonlyMap<string, ReadonlySet<string>>): void {
    this.again = again;
    this.run.againAloneSince = new Date();
    for (const [target, titles] of again) {
      const outcomes = listIn(this.run.outcomes, target);
      outcomes.forEach((outcome, index) => {
        if (!titles.has(outcome.title)) return;
        listIn(this.run.superseded, target).push(outcome);
        outcomes[index] = notRunAgain(outcome);
      });
    }
  }

  onTestCaseResult(testCase: TestCase): void {
    const outcome = outcomeOf(testCase);
    const target = this.targetOf(testCase);
    if (this.again !== undefined) {
      this.takeAgainAlone(target, outcome);
      return;
    }
    listIn(this.run.outcomes, target).push(outcome);
    this.onOutcome?.(target, outcome);
  }

  /**
   * Side by side, tests end in whatever order their requests were answered; the reports list them as
   * they are declared, as a run one test at a time does, so that one run reads like the next (and the
   * gallery's kill matrix is the same from run to run). Files keep the order they ran in.
   */
  private sortAsDeclared(modules: ReadonlyArray<TestModule>): void {
    const declared = new Map<string, number>();
    for (const module of modules) {
      let index = 0;
      for (const test of module.children.allTests()) declared.set(`${module.relativeModuleId}\n${test.name}`, index++);
    }
    const place = (outcome: TestOutcome) => declared.get(`${outcome.file}\n${outcome.title}`) ?? declared.size;
    for (const outcomes of this.run.outcomes.values()) {
      const files = new Map<string, number>();
      for (const outcome of outcomes) if (!files.has(outcome.file)) files.set(outcome.file, files.size);
      outcomes.sort((a, b) => files.get(a.file)! - files.get(b.file)! || place(a) - place(b));
    }
  }

  private takeAgainAlone(target: string, outcome: TestOutcome): void {
    const outcomes = listIn(this.run.outcomes, target);
    const waiting = outcomes.findIndex((o) => o.title === outcome.title && o.file === outcome.file);
    // The second pass's filter skips every other test of its files: their results say only that.
    if (!this.again?.get(target)?.has(outcome.title) || waiting < 0) return;
    outcomes[waiting] = outcome;
    this.onOutcome?.(target, outcome);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string }>): void {
    // The second pass replaces outcomes where they stand, and its modules hold only what it ran.
    if (this.again === undefined) this.sortAsDeclared(testModules);
    for (const module of testModules) {
      for (const error of module.errors()) this.run.errors.push(`${module.moduleId}: ${error.message}`);
    }
    for (const error of unhandledErrors) this.run.errors.push(`unhandled: ${error.message ?? String(error)}`);
  }
}

/** A test that failed or went unverified beside others, while it waits to run again alone: nothing of its try is judged. */
function notRunAgain(outcome: TestOutcome): TestOutcome {
  return {
    title: outcome.title,
    file: outcome.file,
    ruleId: outcome.ruleId,
    state: 'not-verified',
    reason: `it ${outcome.state === 'failed' ? 'failed' : 'went unverified'} beside other tests, and the run stopped before it ran again alone`,
    requests: 0,
    cleanupRequests: 0,
    sharesRun: outcome.sharesRun,
    besideOthers: outcome.besideOthers,
    exchanges: [],
    throttled: 0,
    lagMs: [],
    durationMs: 0,
  };
}

function listIn<T>(map: Map<string, T[]>, key: string): T[] {
  let list = map.get(key);
  if (list === undefined) {
    list = [];
    map.set(key, list);
  }
  return list;
}

function outcomeOf(testCase: TestCase): TestOutcome {
  const result = testCase.result();
  const meta = testCase.meta();
  const error = result.errors?.[0];
  const requests = meta.requests ?? 0;
  const ruleId = ruleIdOfTitle(testCase.name);
  const judged =
    ruleId === undefined
      ? { state: 'suite-error' as const, reason: 'suite defect: the title does not start with a catalogue rule id' }
      : classify({
          state: result.state,
          notVerified: meta.notVerified,
          skipNote: result.state === 'skipped' ? result.note : undefined,
          // A list walk it joined was sent for it too: a check judged on those pages stands on requests.
          requests: requests + (meta.witnessed ?? 0),
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
    cleanupRequests: meta.cleanupRequests ?? 0,
    tally: { test: meta.tally ?? emptyTally(), cleanup: meta.cleanupTally ?? emptyTally() },
    sharesRun: meta.sharedRequests !== undefined,
    besideOthers: testCase.options.concurrent === true,
    takenBesideOthers: judged.state === 'not-verified' && meta.takenBesideOthers === true,
    exchanges: records.map((record) => record.line),
    // Whole exchanges and their curl commands are for what needs looking into, not for every pass.
    evidence: judged.state === 'passed' || records.length === 0 ? undefined : records,
    checkedWith: meta.checkedWith,
    cleanup: meta.cleanup,
    throttled: meta.throttled ?? 0,
    lagMs: meta.lagMs ?? [],
    durationMs: Math.round(testCase.diagnostic()?.duration ?? 0),
  };
}
