// `--rule`: which rules a selection names, and which suite files a partial run loads for them. A file
// left out would leave its rule's tests unrun, so the file sets are checked against the calls that
// register the tests, read from the suites themselves.
import { describe, expect, test } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { CannotRunError } from '../helpers/exit-codes.ts';
import { modelRules, rules } from '../helpers/rules.ts';
import { selectRules, suiteFilesFor, testNamePatternFor } from '../helpers/runner/rule-selection.ts';
import { suiteSources } from '../helpers/runner/run-suites.ts';

const sources = suiteSources();
const MODEL_SUITE = 'suites/model.test.ts';

/** The first argument of every ruleTest( and ruleCases( call in a suite's text. */
function registeredIds(source: string): string[] {
  return [...source.matchAll(/\brule(?:Test|Cases)\(\s*([^,\s]+)/g)].map((match) => match[1]!);
}

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

describe('the suite files a partial run loads', () => {
  test('every suite but the model-based one registers its tests under rule ids written out in quotes', () => {
    for (const [file, source] of sources) {
      const ids = registeredIds(source);
      expect(ids.length, file).toBeGreaterThan(0);
      if (file === MODEL_SUITE) expect(ids, file).toEqual(['id']);
      else for (const id of ids) expect(id, `${file}: ${id}`).toMatch(/^'[A-Z]+-\d{2}'$/);
    }
  });

  test("each rule's files are exactly those that register its tests, the model-based suite with its rules", () => {
    const config = readTargetConfig({});
    const checkedByModel = modelRules(config);
    expect(checkedByModel.length).toBeGreaterThan(0);
    for (const rule of rules) {
      const registering = [...sources]
        .filter(([file, source]) =>
          file === MODEL_SUITE ? checkedByModel.includes(rule.id) : registeredIds(source).includes(`'${rule.id}'`),
        )
        .map(([file]) => file);
      expect(registering.length, rule.id).toBeGreaterThan(0);
      expect(suiteFilesFor([rule.id], sources, checkedByModel), rule.id).toEqual(registering);
    }
  });

  test('with the model-based suite off, its file is not loaded', () => {
    expect(suiteFilesFor(['UPDATE-01'], sources, [])).toEqual(['suites/update.test.ts']);
    expect(suiteFilesFor(['UPDATE-01', 'AUTH-02'], sources, ['UPDATE-01'])).toEqual([
      'suites/auth.test.ts',
      MODEL_SUITE,
      'suites/update.test.ts',
    ]);
  });
});
