// The outcomes other than a pass, named the same in every report: the console, conformance.md and
// conformance.json, junit.xml and the Allure categories. Loads nothing at run time: allurerc.ts reads
// it, through allure-layout.ts, in Allure's own process.
import type { JudgedState } from '../runner/verdict.ts';

export const OUTCOMES = {
  mustFailure: 'MUST failure',
  shouldWarning: 'SHOULD warning',
  notVerified: 'not verified',
  suiteDefect: 'suite defect',
} as const;

export type Outcome = (typeof OUTCOMES)[keyof typeof OUTCOMES];

const OUTCOME_OF: Record<JudgedState, Outcome | undefined> = {
  passed: undefined,
  failed: OUTCOMES.mustFailure,
  warning: OUTCOMES.shouldWarning,
  'not-verified': OUTCOMES.notVerified,
  'suite-error': OUTCOMES.suiteDefect,
};

/** A judged test's outcome; none for a pass. */
export function outcomeOf(state: JudgedState): Outcome | undefined {
  return OUTCOME_OF[state];
}

/** What a warning says first wherever its text is shown, so that nobody takes it for a failure. */
export const WARNING_PREFIX = 'WARNING (SHOULD, does not change the verdict)';
