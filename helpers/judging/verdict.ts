// One test's outcome as the reporter saw it, and how outcomes become rule verdicts: pure, so checked without a target.
import type { ExchangeRecord } from '../evidence/evidence.ts';
import type { RequestTally } from '../evidence/request-tally.ts';
import { isModelTestTitle } from '../harness/model/title.ts';
import type { CleanupRecord } from '../ownership/cleanup-record.ts';
import type { OutageStart } from '../pacing/outage.ts';
import { type Rule, type RuleLevel, rules } from '../rules.ts';

type TestState = 'passed' | 'failed' | 'not-verified' | 'suite-error';

/** The reasons of a test, and of a rule, that never ran: the certificate tells them apart from a reason of their own. */
export const TEST_DID_NOT_RUN = 'the test did not run';
export const NO_TEST_RAN = 'no test of this rule ran';

/** A test as the reporter read it, from its task.meta among others (helpers/harness/task-meta.ts). */
export interface TestOutcome {
  title: string;
  file: string;
  ruleId?: string;
  state: TestState;
  reason?: string;
  requests: number;
  cleanupRequests: number;
  tally?: { test: RequestTally; cleanup: RequestTally };
  /** The test shares a run with others (the model-based suite's), whose requests one of them counts. */
  sharesRun?: boolean;
  /** One line per exchange of the test body, in order. */
  exchanges: string[];
  /** Each exchange whole, with its curl command: kept only for a test that did not pass. */
  evidence?: ExchangeRecord[];
  checkedWith?: string[];
  cleanup?: CleanupRecord;
  throttled: number;
  lagMs: number[];
  durationMs: number;
  outage?: OutageStart;
}

/** A rule as the verdict judged it: a rule below MUST that failed is a warning, in every report. */
export type RuleStatus = 'passed' | 'failed' | 'warning' | 'not-verified';

/** A test as the verdict judged it: failed only at MUST; below MUST, a warning. */
export type JudgedState = TestState | 'warning';

export type JudgedTest = Pick<
  TestOutcome,
  'title' | 'reason' | 'requests' | 'durationMs' | 'exchanges' | 'evidence' | 'checkedWith'
> & { state: JudgedState };

export interface RuleResult extends Rule {
  status: RuleStatus;
  reason?: string;
  /** What is not the status: a model-based test that did not verify the rule where example tests decided it. */
  notes?: string[];
  tests: JudgedTest[];
}

/** Only a MUST rule can fail the certificate; any other that fails warns. */
export function failureOf(level: RuleLevel): 'failed' | 'warning' {
  return level === 'must' ? 'failed' : 'warning';
}

/** could-not-complete: the shop stopped answering past the outage budget; no red (nor green) on maintenance. */
export type Verdict = 'conformant' | 'non-conformant' | 'incomplete' | 'could-not-complete';

// Errors that leave a test nothing to check against: no answer (after retries, or in time), none of the shop's (a
// gateway's 502, 503, 504), or a body past one of the suite's limits (size, time, nesting), unread: the spec shows none.
const NOTHING_TO_CHECK = new Map([
  ['TransportError', 'no answer'],
  ['ShopUnavailableError', 'no answer'],
  ['BodyLimitError', 'no readable answer'],
]);
const TIMED_OUT = /^Test timed out in \d+ms/;

export function classify(input: {
  state: 'passed' | 'failed' | 'skipped' | 'pending';
  notVerified?: string;
  skipNote?: string;
  requests: number;
  /** Requests of a run the test shares with others, counted under another test. */
  sharedRequests?: number;
  errorName?: string;
  errorMessage?: string;
}): { state: TestState; reason?: string } {
  if (input.state === 'skipped' || input.state === 'pending') {
    return { state: 'not-verified', reason: input.notVerified ?? input.skipNote ?? TEST_DID_NOT_RUN };
  }
  const name = input.errorName ?? '';
  // The ownership guard: the suite, not the target, went wrong.
  if (name === 'OwnershipError') return { state: 'suite-error', reason: `suite defect: ${input.errorMessage ?? name}` };
  const nothing = NOTHING_TO_CHECK.get(name) ?? (TIMED_OUT.test(input.errorMessage ?? '') ? 'no answer' : undefined);
  if (nothing !== undefined)
    return { state: 'not-verified', reason: `${nothing} to check against: ${firstLine(input.errorMessage ?? name)}` };
  // A check with no request behind it proves nothing about the target, whichever way it went.
  if (input.requests === 0 && !input.sharedRequests) {
    const detail = input.errorMessage ? ` (${firstLine(input.errorMessage)})` : '';
    return { state: 'suite-error', reason: `suite defect: the test ${input.state} without sending a request${detail}` };
  }
  if (input.state === 'failed') return { state: 'failed', reason: input.errorMessage ?? 'failed' };
  return { state: 'passed' };
}

function firstLine(text: string): string {
  return text.split('\n')[0]!;
}

/**
 * A rule's status from its tests. Any test can fail it; whether it is verified is the example tests' to
 * say, since the random sequences reach a rule on one seed and miss it on the next: where example tests
 * ran, a model-based test that did not verify the rule is a note. Where none ran, it decides alone.
 */
function judgeRule(rule: Rule, outcomes: readonly TestOutcome[]): RuleResult {
  const mine = outcomes.filter((outcome) => outcome.ruleId === rule.id);
  const tests = mine.map((outcome): JudgedTest => {
    const { title, reason, requests, durationMs, exchanges, evidence, checkedWith } = outcome;
    const state = outcome.state === 'failed' ? failureOf(rule.level) : outcome.state;
    return { title, state, reason, requests, durationMs, exchanges, evidence, checkedWith };
  });
  const base = { ...rule, tests };
  const failed = mine.filter((outcome) => outcome.state === 'failed');
  if (failed.length > 0) {
    const reason = failed.map((o) => `${o.title}: ${firstLine(o.reason ?? '')}`).join(' | ');
    return { ...base, status: failureOf(rule.level), reason };
  }
  const examples = mine.filter((outcome) => !isModelTestTitle(outcome.title));
  const deciding = examples.length > 0 ? examples : mine;
  const notes = (examples.length > 0 ? mine : [])
    .filter((o) => isModelTestTitle(o.title) && o.state !== 'passed')
    .map((o) => `model-based test not verified: ${firstLine(o.reason ?? 'it did not run')}`);
  const judged = notes.length > 0 ? { ...base, notes } : base;
  if (deciding.length === 0) return { ...judged, status: 'not-verified', reason: NO_TEST_RAN };
  const open = deciding.filter((outcome) => outcome.state !== 'passed');
  if (open.length > 0) {
    const reasons = [...new Set(open.map((o) => firstLine(o.reason ?? 'not verified')))];
    return { ...judged, status: 'not-verified', reason: reasons.join(' | ') };
  }
  // classify() makes a test that sent nothing a suite defect; this holds for an outcome made some other way.
  if (!deciding.some((outcome) => outcome.requests > 0 || outcome.sharesRun === true))
    return { ...judged, status: 'not-verified', reason: 'no request was sent to check it' };
  return { ...judged, status: 'passed' };
}

export function judgeRules(outcomes: readonly TestOutcome[]): RuleResult[] {
  return rules.map((rule) => judgeRule(rule, outcomes));
}

export function verdictOf(results: readonly RuleResult[], suiteErrors: readonly string[] = []): Verdict {
  const must = results.filter((result) => result.level === 'must');
  if (must.some((result) => result.status === 'failed')) return 'non-conformant';
  if (suiteErrors.length > 0 || must.some((result) => result.status !== 'passed')) return 'incomplete';
  return 'conformant';
}
