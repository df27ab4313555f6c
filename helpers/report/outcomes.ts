// The outcomes other than a pass, named the same in every report: the console, conformance.md and
// conformance.json, junit.xml and the Allure categories. Loads nothing at run time: allurerc.ts reads
// it, through allure-layout.ts, in Allure's own process.

import type { JudgedState } from '../judging/verdict.ts';
import type { RuleLevel } from '../rules.ts';

export const OUTCOMES = {
  mustFailure: 'MUST failure',
  shouldWarning: 'SHOULD warning',
  mayWarning: 'MAY warning',
  notVerified: 'not verified',
  suiteDefect: 'suite defect',
} as const;

export type Outcome = (typeof OUTCOMES)[keyof typeof OUTCOMES];

/** Only a MUST rule fails; the level of any other names its warning, so a MAY probe never reads as SHOULD. */
const WARNING_OF: Record<Exclude<RuleLevel, 'must'>, Outcome> = {
  should: OUTCOMES.shouldWarning,
  may: OUTCOMES.mayWarning,
};

/** A judged test's outcome, by the level of its rule; none for a pass. */
export function outcomeOf(level: RuleLevel, state: JudgedState): Outcome | undefined {
  if (state === 'passed') return undefined;
  if (state === 'failed') return OUTCOMES.mustFailure;
  if (state === 'not-verified') return OUTCOMES.notVerified;
  if (state === 'suite-error') return OUTCOMES.suiteDefect;
  return level === 'must' ? OUTCOMES.mustFailure : WARNING_OF[level];
}

/** What a warning says first wherever its text is shown, so that nobody takes it for a failure. */
export function warningPrefix(level: RuleLevel): string {
  return `WARNING (${level.toUpperCase()}, does not change the verdict)`;
}
