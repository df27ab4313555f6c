// How test outcomes become rule verdicts and an exit code. A MUST rule with no request behind it is
// never passed; a SHOULD or MAY failure never changes the verdict.
import { describe, expect, test } from 'vitest';
import { rules } from '../helpers/rules.ts';
import { classify, exitCodeOf, judgeRules, type TestOutcome, verdictOf } from '../helpers/runner/verdict.ts';

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
    expect([verdict, exitCodeOf(verdict)]).toEqual(['conformant', 0]);
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
    expect([verdict, exitCodeOf(verdict)]).toEqual(['non-conformant', 1]);
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
    expect([verdict, exitCodeOf(verdict)]).toEqual(['conformant', 0]);
  });
  test('a suite error makes an otherwise clean run incomplete', () => {
    expect(verdictOf(judgeRules(allPassed()), ['a test made no request'])).toBe('incomplete');
  });
});
