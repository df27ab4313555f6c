// A rule's state as the certificate shows it, in every human-facing report (conformance.md, the
// certificate page, the job summary): conformance.json's four statuses, with "suite defect" told apart
// from "not verified" because the suite, not the shop, is what must be fixed then.
import type { RuleResult, RuleStatus } from '../judging/verdict.ts';

export type ShownState = RuleStatus | 'suite-defect';

/** What a rule that a test of it errored on in the suite is: not verified in the json, a suite defect here. */
export function isSuiteDefect(rule: Pick<RuleResult, 'status' | 'tests'>): boolean {
  return rule.status === 'not-verified' && rule.tests.some((test) => test.state === 'suite-error');
}

export function shownStateOf(rule: Pick<RuleResult, 'status' | 'tests'>): ShownState {
  return isSuiteDefect(rule) ? 'suite-defect' : rule.status;
}

/** The words for each state, as the issue names the certificate's states. */
export const STATE_WORDS: Record<ShownState, string> = {
  passed: 'passed',
  failed: 'failed',
  warning: 'warning',
  'not-verified': 'not verified',
  'suite-defect': 'suite defect',
};

/**
 * One character a night, for strips of nights where a word would not fit (the job summary's table,
 * the page's cells). A character, not only a colour, so that a reader who cannot tell red from green
 * still can tell a failure from a pass. A rule a night did not know (an older catalogue) is `-`.
 */
export const STATE_GLYPHS: Record<ShownState | 'absent', string> = {
  passed: '✓',
  failed: '✗',
  warning: '!',
  'not-verified': '?',
  'suite-defect': '⚙',
  absent: '-',
};

/**
 * Tonight's cell of a rule a --rule run left out: it was not checked, which is not "not verified"
 * (`?`, a rule checked that could not be decided). The grid and the tables say "not selected" too.
 */
export const NOT_SELECTED = { glyph: '·', words: 'not selected' } as const;

export const GLYPH_KEY = (['passed', 'failed', 'warning', 'not-verified', 'suite-defect'] as const)
  .map((state) => `${STATE_GLYPHS[state]} ${STATE_WORDS[state]}`)
  .join(', ');

const MARKDOWN_MARK: Record<Exclude<ShownState, 'warning'>, string> = {
  passed: 'passed',
  failed: '**FAILED**',
  'not-verified': '*NOT VERIFIED*',
  'suite-defect': '*NOT VERIFIED* (suite defect)',
};

/** The markdown rule table's status cell: a warning names its level (SHOULD or MAY), as every report does. */
export function markdownStatusMark(rule: RuleResult): string {
  const state = shownStateOf(rule);
  return state === 'warning' ? `WARNING (${rule.level.toUpperCase()})` : MARKDOWN_MARK[state];
}
