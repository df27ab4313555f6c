// Which tests the second pass runs again alone (helpers/runner/again-alone.ts), and the name filter
// that picks exactly them: a test that failed beside others, or that a test beside it kept from its
// check on a store that reuses ids; never a test that ran alone, passed, or was not verified for a
// reason of its own.
import { expect, test } from 'vitest';
import { exactTitlesPattern, runsAgainAlone, toRunAgainAlone } from '../helpers/runner/again-alone.ts';
import type { CollectedRun } from '../helpers/runner/collector.ts';
import type { TestOutcome } from '../helpers/runner/verdict.ts';

function outcome(title: string, fields: Partial<TestOutcome>): TestOutcome {
  return {
    title,
    file: 'suites/delete.test.ts',
    ruleId: title.split(' ')[0],
    state: 'passed',
    requests: 3,
    cleanupRequests: 1,
    exchanges: [],
    throttled: 0,
    lagMs: [],
    durationMs: 1,
    ...fields,
  };
}

const outcomes = [
  outcome('DELETE-01 failed beside others', { state: 'failed', besideOthers: true }),
  outcome('DELETE-01 id taken beside others', { state: 'not-verified', besideOthers: true, takenBesideOthers: true }),
  outcome('DELETE-01 passed beside others', { state: 'passed', besideOthers: true }),
  outcome('DELETE-02 no booking fixture', { state: 'not-verified', besideOthers: true }),
  outcome('ROBUST-02 failed alone', { state: 'failed', besideOthers: false }),
  outcome('DELETE-01 id taken alone', { state: 'not-verified', besideOthers: false, takenBesideOthers: true }),
];

test('a test runs again alone when it failed beside others, or went unverified because a test beside it took an id', () => {
  expect(outcomes.filter(runsAgainAlone).map((o) => o.title)).toEqual([
    'DELETE-01 failed beside others',
    'DELETE-01 id taken beside others',
  ]);
});

test("the second pass's filter picks exactly those tests, by their whole title", () => {
  const run = { outcomes: new Map([['shop', outcomes]]) } as unknown as CollectedRun;
  const titles = toRunAgainAlone(run).get('shop')!;
  const pattern = exactTitlesPattern(titles);
  expect(outcomes.map((o) => o.title).filter((title) => pattern.test(title))).toEqual([...titles]);
  expect(pattern.test('DELETE-01 failed beside others, and more')).toBe(false);
});
