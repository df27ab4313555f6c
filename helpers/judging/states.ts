// Every state a rule or a test can be in, and every verdict, as each report shows it: one row per
// state, one per verdict, read by every renderer (the console, conformance.md, the certificate page,
// the job summary, junit.xml, Allure, the badge), so that no two reports can name one state two
// ways. Loads nothing at run time but the exit codes: allurerc.ts reads it, through allure-layout.ts,
// in Allure's own process.

import { EXIT } from '../exit-codes.ts';
import type { RuleLevel } from '../rules.ts';
import type { JudgedState, RuleResult, RuleStatus, Verdict } from './verdict.ts';

/**
 * A rule's state as the reports show it: conformance.json's four statuses, with "suite defect" told
 * apart from "not verified" because the suite, not the shop, is what must be fixed then.
 */
export type ShownState = RuleStatus | 'suite-defect';

/** Every shown state, in the order the keys of the strips name them. */
export const SHOWN_STATES = [
  'passed',
  'failed',
  'warning',
  'not-verified',
  'suite-defect',
] as const satisfies readonly ShownState[];

/** What a rule that a test of it errored on in the suite is: not verified in the json, a suite defect in the reports. */
export function isSuiteDefect(rule: Pick<RuleResult, 'status' | 'tests'>): boolean {
  return rule.status === 'not-verified' && rule.tests.some((test) => test.state === 'suite-error');
}

export function shownStateOf(rule: Pick<RuleResult, 'status' | 'tests'>): ShownState {
  return isSuiteDefect(rule) ? 'suite-defect' : rule.status;
}

/** The outcomes other than a pass, named the same in every report: the junit property, Allure's label and categories. */
export const OUTCOMES = {
  mustFailure: 'MUST failure',
  shouldWarning: 'SHOULD warning',
  mayWarning: 'MAY warning',
  notVerified: 'not verified',
  suiteDefect: 'suite defect',
} as const;

export type Outcome = (typeof OUTCOMES)[keyof typeof OUTCOMES];

/** What a warning says first wherever its text is shown, so that nobody takes it for a failure. */
export function warningPrefix(level: RuleLevel): string {
  return `WARNING (${level.toUpperCase()}, does not change the verdict)`;
}

/** How a state looks wherever a rule's nights are drawn, its own and the two that are no judgement. */
interface StateLook {
  words: string;
  /**
   * One character a night, for strips of nights where a word would not fit. A character, not only a
   * colour, so that a reader who cannot tell red from green still can tell a failure from a pass.
   */
  glyph: string;
  /** The same wherever the certificate page shows the state: a grid cell, a night, a heading. */
  colour: string;
}

/** How a judged state shows in each report. A field that takes the level names a warning's (SHOULD or MAY). */
interface JudgedLook extends StateLook {
  /** conformance.md's headings and the console's rule table: what needs a look, in capitals. */
  loud: string;
  /** The status cell of the markdown rule tables (conformance.md, the job summary). */
  markdown: (level: RuleLevel) => string;
  /** After the title of a test that did not pass, in conformance.md and on the certificate page. */
  testMark: (level: RuleLevel) => string;
  /** The console's line for a test as it finishes. */
  consoleMark: string;
  outcome: (level: RuleLevel) => Outcome | undefined;
  /**
   * The element junit.xml gives it. CI tools count every <failure> as red and none has a warning
   * state, so a warning is a passed testcase that says WARNING and its level in its output.
   */
  junit: 'failure' | 'error' | 'skipped' | undefined;
  /** Allure's status. A warning is passed: no failure in Allure's charts and trends either. */
  allure: 'failed' | 'broken' | 'passed' | 'skipped';
}

/** In this order the certificate page's style names the colours, which its policy's hash covers. */
export const STATES: Record<ShownState, JudgedLook> & Record<'absent' | 'not-selected', StateLook> = {
  passed: {
    words: 'passed',
    glyph: '✓',
    colour: '#2e7d32',
    loud: 'passed',
    markdown: () => 'passed',
    testMark: () => 'passed',
    consoleMark: 'pass',
    outcome: () => undefined,
    junit: undefined,
    allure: 'passed',
  },
  failed: {
    words: 'failed',
    glyph: '✗',
    colour: '#c62828',
    loud: 'FAILED',
    markdown: () => '**FAILED**',
    testMark: () => 'FAILED',
    consoleMark: 'FAIL',
    outcome: () => OUTCOMES.mustFailure,
    junit: 'failure',
    allure: 'failed',
  },
  // Only a MUST rule fails; the level of any other names its warning, so a MAY probe never reads as SHOULD.
  warning: {
    words: 'warning',
    glyph: '!',
    colour: '#b26a00',
    loud: 'WARNING',
    markdown: (level) => `WARNING (${level.toUpperCase()})`,
    testMark: warningPrefix,
    consoleMark: 'warn',
    outcome: (level) =>
      ({ must: OUTCOMES.mustFailure, should: OUTCOMES.shouldWarning, may: OUTCOMES.mayWarning })[level],
    junit: undefined,
    allure: 'passed',
  },
  'not-verified': {
    words: 'not verified',
    glyph: '?',
    colour: '#5f6b7a',
    loud: 'NOT VERIFIED',
    markdown: () => '*NOT VERIFIED*',
    testMark: () => 'not verified',
    consoleMark: 'n/v',
    outcome: () => OUTCOMES.notVerified,
    junit: 'skipped',
    allure: 'skipped',
  },
  // Not verified in conformance.json, whose statuses are the shop's; loud, it says so.
  'suite-defect': {
    words: 'suite defect',
    glyph: '⚙',
    colour: '#6a1b9a',
    loud: 'NOT VERIFIED',
    markdown: () => '*NOT VERIFIED* (suite defect)',
    testMark: () => 'suite defect',
    consoleMark: 'ERR',
    outcome: () => OUTCOMES.suiteDefect,
    junit: 'error',
    allure: 'broken',
  },
  // A rule a night did not know (an older catalogue).
  absent: { words: 'not in the catalogue', glyph: '-', colour: '#c9ced6' },
  // Tonight's cell of a rule a --rule run left out: it was not checked, which is not "not verified"
  // (`?`, a rule checked that could not be decided).
  'not-selected': { words: 'not selected', glyph: '·', colour: '#a3abb6' },
};

/** A test's state as its rule's would show: a test that errored in the suite shows as the suite defect. */
export function testLook(state: JudgedState): JudgedLook {
  return STATES[state === 'suite-error' ? 'suite-defect' : state];
}

/** A verdict of a run that started, or the one of a run that could not. */
export type ShownVerdict = Verdict | 'could-not-run';

interface VerdictLook {
  /** On the badge, and in capitals at the head of the certificate page. */
  words: string;
  colour: string;
  /** What the certificate page says it means, under its name. */
  meaning: string;
  exitCode: number;
}

export const VERDICTS = {
  conformant: {
    words: 'conformant',
    colour: '#2e7d32',
    meaning: 'every MUST rule was verified and passed',
    exitCode: EXIT.ok,
  },
  'non-conformant': {
    words: 'non-conformant',
    colour: '#c62828',
    meaning: 'at least one MUST rule failed',
    exitCode: EXIT.failed,
  },
  incomplete: {
    words: 'incomplete',
    colour: '#b8860b',
    meaning: 'no MUST rule failed, but not every one could be verified',
    exitCode: EXIT.incomplete,
  },
  // Grey like a run that could not start: the shop was not there to judge.
  'could-not-complete': {
    words: 'could not complete',
    colour: '#757575',
    meaning: 'the shop stopped answering partway: no verdict on the shop was given',
    exitCode: EXIT.cannotRun,
  },
  'could-not-run': {
    words: 'could not run',
    colour: '#757575',
    meaning: 'the run could not start: no rule was checked',
    exitCode: EXIT.cannotRun,
  },
} as const satisfies Record<ShownVerdict, VerdictLook>;

export function exitCodeOf(verdict: Verdict): (typeof VERDICTS)[Verdict]['exitCode'] {
  return VERDICTS[verdict].exitCode;
}
