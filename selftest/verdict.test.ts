// How test outcomes become rule verdicts and an exit code. A MUST rule with no request behind it is
// never passed; a SHOULD or MAY failure never changes the verdict.
import { describe, expect, test } from 'vitest';
import { VERDICTS } from '../helpers/judging/states.ts';
import { classify, judgeRules, type TestOutcome, verdictOf } from '../helpers/judging/verdict.ts';
import { rules } from '../helpers/rules.ts';

const outcome = (ruleId: string, state: TestOutcome['state'], reason?: string): TestOutcome => ({
  title: `${ruleId} a test`,
  file: 'suites/x.test.ts',
  ruleId,
  state,
  reason,
  requests: 3,
  cleanupRequests: 0,
  exchanges: [],
  throttled: 0,
  lagMs: [],
  durationMs: 1,
});
const allPassed = () => rules.map((rule) => outcome(rule.id, 'passed'));

/** A model-based test of the rule, as the collector hands it over: its requests are the shared run's. */
const modelOutcome = (ruleId: string, state: TestOutcome['state'], reason?: string): TestOutcome => ({
  ...outcome(ruleId, state, reason),
  title: `${ruleId} a rule: sequences of operations agree with the model`,
  requests: 0,
  sharesRun: true,
});
const NOT_REACHED = (id: string) =>
  `no model-based sequence reached a check of ${id} this run (3 sequence(s), 120 requests, seed -1311814496)`;

describe('classify', () => {
  test('a passed test that sent no request is a suite defect, not a pass', () => {
    expect(classify({ state: 'passed', requests: 0 })).toMatchObject({ state: 'suite-error' });
  });
  test('a failed test that sent no request is a suite defect, not a failure of the target', () => {
    expect(classify({ state: 'failed', requests: 0, errorMessage: 'boom' }).state).toBe('suite-error');
  });
  test('a test whose evidence is a run it shares with other tests, counted under another, is judged on it', () => {
    expect(classify({ state: 'passed', requests: 0, sharedRequests: 120 })).toEqual({ state: 'passed' });
    expect(classify({ state: 'failed', requests: 0, sharedRequests: 120, errorMessage: 'zone B shows' }).state).toBe(
      'failed',
    );
    expect(classify({ state: 'passed', requests: 0, sharedRequests: 0 }).state).toBe('suite-error');
  });

  test('a skipped test is not verified, with its reason', () => {
    expect(classify({ state: 'skipped', requests: 2, notVerified: 'no booking fixture' })).toEqual({
      state: 'not-verified',
      reason: 'no booking fixture',
    });
  });
  test('the ownership guard firing is a suite defect', () => {
    expect(classify({ state: 'failed', requests: 4, errorName: 'OwnershipError', errorMessage: 'refused' }).state).toBe(
      'suite-error',
    );
  });
  test("a gateway's answer (an outage) is not verified, never a failure, whatever the test expected", () => {
    const judged = classify({
      state: 'failed',
      requests: 4,
      errorName: 'ShopUnavailableError',
      errorMessage:
        'POST http://shop/zones.json answered 503 Service Unavailable (text/html, a page titled "Back soon")',
    });
    expect(judged).toEqual({ state: 'not-verified', reason: expect.stringContaining('answered 503') });
  });
  test('a failed assertion with requests behind it is a failure', () => {
    expect(classify({ state: 'failed', requests: 4, errorMessage: 'expected a refusal' })).toEqual({
      state: 'failed',
      reason: 'expected a refusal',
    });
  });
});

describe('verdict', () => {
  test('every rule passed is conformant, exit 0', () => {
    const verdict = verdictOf(judgeRules(allPassed()));
    expect([verdict, VERDICTS[verdict].exitCode]).toEqual(['conformant', 0]);
  });
  test('one MUST failure is non-conformant, exit 1, even with others not verified', () => {
    const outcomes = allPassed().map((o) =>
      o.ruleId === 'LIST-02'
        ? outcome('LIST-02', 'failed', 'x')
        : o.ruleId === 'DELETE-02'
          ? outcome('DELETE-02', 'not-verified')
          : o,
    );
    const verdict = verdictOf(judgeRules(outcomes));
    expect([verdict, VERDICTS[verdict].exitCode]).toEqual(['non-conformant', 1]);
  });
  test('a MUST rule not verified makes the run incomplete, exit 2', () => {
    const outcomes = allPassed().map((o) =>
      o.ruleId === 'DELETE-02' ? outcome('DELETE-02', 'not-verified', 'no fixture') : o,
    );
    const results = judgeRules(outcomes);
    expect(results.find((r) => r.id === 'DELETE-02')).toMatchObject({ status: 'not-verified', reason: 'no fixture' });
    expect(verdictOf(results)).toBe('incomplete');
  });
  test('a MUST rule with no test at all is not verified, never passed', () => {
    const results = judgeRules(allPassed().filter((o) => o.ruleId !== 'AUTH-03'));
    expect(results.find((r) => r.id === 'AUTH-03')).toMatchObject({
      status: 'not-verified',
      reason: 'no test of this rule ran',
    });
    expect(verdictOf(results)).toBe('incomplete');
  });
  test('one case of a rule not verified leaves the whole rule not verified', () => {
    const outcomes = [...allPassed(), outcome('LIST-02', 'not-verified', 'could not reach status live')];
    expect(judgeRules(outcomes).find((r) => r.id === 'LIST-02')?.status).toBe('not-verified');
  });
  test('a SHOULD failure is a warning: the run stays conformant', () => {
    const outcomes = allPassed().map((o) =>
      o.ruleId === 'PROFILE-02' ? outcome('PROFILE-02', 'failed', 'got 200') : o,
    );
    const results = judgeRules(outcomes);
    expect(results.find((r) => r.id === 'PROFILE-02')).toMatchObject({
      status: 'warning',
      tests: [{ state: 'warning', reason: 'got 200' }],
    });
    expect(verdictOf(results)).toBe('conformant');
  });
  test('a MAY failure is a warning too, and a MAY rule not verified leaves the run conformant', () => {
    const outcomes = allPassed().map((o) =>
      o.ruleId === 'ROBUST-05'
        ? outcome('ROBUST-05', 'failed', 'got 500')
        : o.ruleId === 'ROBUST-07'
          ? outcome('ROBUST-07', 'not-verified', 'list records do not show coverage')
          : o,
    );
    const results = judgeRules(outcomes);
    expect(results.find((r) => r.id === 'ROBUST-05')).toMatchObject({
      level: 'may',
      status: 'warning',
      tests: [{ state: 'warning', reason: 'got 500' }],
    });
    const verdict = verdictOf(results);
    expect([verdict, VERDICTS[verdict].exitCode]).toEqual(['conformant', 0]);
  });
  test('a suite error makes an otherwise clean run incomplete', () => {
    expect(verdictOf(judgeRules(allPassed()), ['a test made no request'])).toBe('incomplete');
  });
});

describe('the model-based tests add to the example tests', () => {
  const MODEL_RULES = ['CREATE-01', 'LIST-02', 'UPDATE-04', 'DELETE-01'];
  /** Every rule's example test passed; the model-based tests of MODEL_RULES went as `night` says. */
  const night = (states: Record<string, TestOutcome['state']>) => [
    ...allPassed(),
    ...MODEL_RULES.map((id) => modelOutcome(id, states[id] ?? 'passed', NOT_REACHED(id))),
  ];

  test('a rule whose example tests passed stays passed when no sequence reached it, with a note saying so', () => {
    const results = judgeRules(night({ 'UPDATE-04': 'not-verified' }));
    expect(results.find((r) => r.id === 'UPDATE-04')).toMatchObject({
      status: 'passed',
      notes: [`model-based test not verified: ${NOT_REACHED('UPDATE-04')}`],
    });
    expect(results.find((r) => r.id === 'CREATE-01')?.notes).toBeUndefined();
    const verdict = verdictOf(results);
    expect([verdict, VERDICTS[verdict].exitCode]).toEqual(['conformant', 0]);
  });

  test('the same shop gives the same statuses whichever rules the random sequences reached', () => {
    const statuses = (states: Record<string, TestOutcome['state']>) =>
      judgeRules(night(states)).map((r) => `${r.id} ${r.status}`);
    const everyRuleReached = statuses({});
    expect(statuses({ 'UPDATE-04': 'not-verified' })).toEqual(everyRuleReached);
    expect(statuses({ 'CREATE-01': 'not-verified', 'LIST-02': 'not-verified', 'DELETE-01': 'not-verified' })).toEqual(
      everyRuleReached,
    );
  });

  test('a model-based test that fails fails the rule its example tests passed', () => {
    const results = judgeRules(night({ 'UPDATE-04': 'failed' }));
    expect(results.find((r) => r.id === 'UPDATE-04')).toMatchObject({ status: 'failed' });
    expect(verdictOf(results)).toBe('non-conformant');
  });

  test('a suite defect in the model-based test is a note on the rule, and the run is incomplete for it', () => {
    const outcomes = night({ 'LIST-02': 'suite-error' });
    const results = judgeRules(outcomes);
    expect(results.find((r) => r.id === 'LIST-02')).toMatchObject({
      status: 'passed',
      notes: [expect.stringContaining('model-based test not verified')],
    });
    expect(verdictOf(results, ['LIST-02 a rule: sequences of operations agree with the model: suite defect'])).toBe(
      'incomplete',
    );
  });

  test('a rule only a model-based test checks is not verified when no sequence reached it', () => {
    const outcomes = [
      ...allPassed().filter((o) => o.ruleId !== 'UPDATE-04'),
      modelOutcome('UPDATE-04', 'not-verified', NOT_REACHED('UPDATE-04')),
    ];
    const results = judgeRules(outcomes);
    expect(results.find((r) => r.id === 'UPDATE-04')).toMatchObject({
      status: 'not-verified',
      reason: NOT_REACHED('UPDATE-04'),
    });
    expect(results.find((r) => r.id === 'UPDATE-04')?.notes).toBeUndefined();
    expect(verdictOf(results)).toBe('incomplete');
    // And passed when it was reached, on the shared run's requests.
    const reached = judgeRules([...outcomes.slice(0, -1), modelOutcome('UPDATE-04', 'passed')]);
    expect(reached.find((r) => r.id === 'UPDATE-04')?.status).toBe('passed');
  });

  test('a model-based pass does not stand in for an example test that could not check the rule', () => {
    const outcomes = [
      ...allPassed().map((o) => (o.ruleId === 'LIST-02' ? outcome('LIST-02', 'not-verified', 'no second status') : o)),
      modelOutcome('LIST-02', 'passed'),
    ];
    expect(judgeRules(outcomes).find((r) => r.id === 'LIST-02')).toMatchObject({
      status: 'not-verified',
      reason: 'no second status',
    });
  });

  test('a MUST rule with no request behind its passes is not passed, however the outcome was made', () => {
    const outcomes = allPassed().map((o) => (o.ruleId === 'CREATE-02' ? { ...o, requests: 0 } : o));
    const results = judgeRules(outcomes);
    expect(results.find((r) => r.id === 'CREATE-02')).toMatchObject({
      status: 'not-verified',
      reason: 'no request was sent to check it',
    });
    expect(verdictOf(results)).toBe('incomplete');
  });
});
