// `--rule`: which rules a selection names, and the test-name pattern that runs exactly their tests.
import { describe, expect, test } from 'vitest';
import { CannotRunError } from '../helpers/exit-codes.ts';
import { selectRules, testNamePatternFor } from '../helpers/runner/rule-selection.ts';

describe('selecting rules', () => {
  test('ids and families in any case, in catalogue order; anything unknown stops the run', () => {
    expect(selectRules('create-02,auth')).toEqual([
      'AUTH-01',
      'AUTH-02',
      'AUTH-03',
      'AUTH-04',
      'AUTH-05',
      'AUTH-06',
      'CREATE-02',
    ]);
    expect(() => selectRules('AUTH,NOPE')).toThrow(CannotRunError);
    expect(() => selectRules(' , ')).toThrow(/names no rule/);
  });

  test("the name pattern matches a rule's titles and no other rule's", () => {
    const pattern = new RegExp(testNamePatternFor(['AUTH-01', 'LIST-02']));
    expect(pattern.test('AUTH-01 the list refuses a call without a credential')).toBe(true);
    expect(pattern.test('LIST-02 the filter')).toBe(true);
    expect(pattern.test('AUTH-011 x')).toBe(false);
    expect(pattern.test('CREATE-01 mentions AUTH-01 later')).toBe(false);
  });
});
