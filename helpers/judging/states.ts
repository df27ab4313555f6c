// Every state a rule or a test can be in, and every verdict, as each report shows it: one row each,
// read by every renderer (the console, conformance.md, the certificate page, the job summary,
// junit.xml, Allure, the badge), so that no two reports can name one state two ways. Loads nothing at
// run time but the exit codes: allurerc.ts reads it, through allure-layout.ts, in Allure's own process.

import { EXIT } from '../exit-codes.ts';
import type { RuleLevel } from '../rules.ts';
import type { JudgedState, RuleResult, RuleStatus, Verdict } from './verdict.ts';

/** conformance.json's statuses of a rule, which an earlier report or night must hold to be read. */
export const RULE_STATUSES = ['passed', 'failed', 'warning', 'not-verified'] as const satisfies readonly RuleStatus[];

/** A rule's status, with "suite defect" told apart from "not verified": the suite, not the shop, must be fixed then. */
export type ShownState = RuleStatus | 'suite-defect';

/** Every shown state, in the order the keys of the strips name them. */
export const SHOWN_STATES = [...RULE_STATUSES, 'suite-defect'] as const satisfies readonly ShownState[];

/** A rule not verified because a test of it errored in the suite is a suite defect, in every report but the json. */
export function shownStateOf(rule: Pick<RuleResult, 'status' | 'tests'>): ShownState {
  const errored = rule.tests.some((test) => test.state === 'suite-error');
  return rule.status === 'not-verified' && errored ? 'suite-defect' : rule.status;
}

/** The outcomes other than a pass, named the same in every report: the junit property, Allure's label and categories. */
export const OUTCOMES = ['MUST failure', 'SHOULD warning', 'MAY warning', 'not verified', 'suite defect'] as const;

export type Outcome = (typeof OUTCOMES)[number];

/** What a warning says first wherever its text is shown, so that nobody takes it for a failure. */
export function warningPrefix(level: RuleLevel): string {
  return `WARNING (${level.toUpperCase()}, does not change the verdict)`;
}

/** How a state looks wherever a rule's nights are drawn, its own and the two that are no judgement. */
interface StateLook {
  words: string;
  /** One character a night, where a word would not fit: not only a colour, for readers who cannot tell red from green. */
  glyph: string;
  /** The same wherever the certificate page shows the state: a grid cell, a night, a heading. */
  colour: string;
}

/** How a judged state shows in each report. A field that takes the level names a warning's (SHOULD or MAY). */
interface JudgedLook extends StateLook {
  says: {
    /** conformance.md's headings and the console's rule table: what needs a look, in capitals. */
    loud: string;
    /** The status cell of the markdown rule tables (conformance.md, the job summary). */
    markdown: (level: RuleLevel) => string;
    /** After the title of a test that did not pass, in conformance.md and on the certificate page. */
    testMark: (level: RuleLevel) => string;
    /** The console's line for a test as it finishes. */
    console: string;
  };
  filedAs: {
    outcome: (level: RuleLevel) => Outcome | undefined;
    /** CI tools count every <failure> as red and have no warning: a warning is a passed testcase that says so. */
    junit: 'failure' | 'error' | 'skipped' | undefined;
    /** Allure's status. A warning is passed: no failure in Allure's charts and trends either. */
    allure: 'failed' | 'broken' | 'passed' | 'skipped';
  };
}

/** In this order the certificate page's style names the colours, which its policy's hash covers. */
export const STATES: Record<ShownState, JudgedLook> & Record<'absent' | 'not-selected', StateLook> = {
  passed: {
    words: 'passed',
    glyph: '✓',
    colour: '#2e7d32',
    says: { loud: 'passed', markdown: () => 'passed', testMark: () => 'passed', console: 'pass' },
    filedAs: { outcome: () => undefined, junit: undefined, allure: 'passed' },
  },
  failed: {
    words: 'failed',
    glyph: '✗',
    colour: '#c62828',
    says: { loud: 'FAILED', markdown: () => '**FAILED**', testMark: () => 'FAILED', console: 'FAIL' },
    filedAs: { outcome: () => 'MUST failure', junit: 'failure', allure: 'failed' },
  },
  // Only a MUST rule fails; the level of any other names its warning, so a MAY probe never reads as SHOULD.
  warning: {
    words: 'warning',
    glyph: '!',
    colour: '#b26a00',
    says: {
      loud: 'WARNING',
      markdown: (level) => `WARNING (${level.toUpperCase()})`,
      testMark: warningPrefix,
      console: 'warn',
    },
    filedAs: {
      outcome: (level) => (({ must: 'MUST failure', should: 'SHOULD warning', may: 'MAY warning' }) as const)[level],
      junit: undefined,
      allure: 'passed',
    },
  },
  'not-verified': {
    words: 'not verified',
    glyph: '?',
    colour: '#5f6b7a',
    says: { loud: 'NOT VERIFIED', markdown: () => '*NOT VERIFIED*', testMark: () => 'not verified', console: 'n/v' },
    filedAs: { outcome: () => 'not verified', junit: 'skipped', allure: 'skipped' },
  },
  // Not verified in conformance.json, whose statuses are the shop's; loud, it says so.
  'suite-defect': {
    words: 'suite defect',
    glyph: '⚙',
    colour: '#6a1b9a',
    says: {
      loud: 'NOT VERIFIED',
      markdown: () => '*NOT VERIFIED* (suite defect)',
      testMark: () => 'suite defect',
      console: 'ERR',
    },
    filedAs: { outcome: () => 'suite defect', junit: 'error', allure: 'broken' },
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
