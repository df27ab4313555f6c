// How a judged test shows in the Allure report, so that its page says what the certificate says, one
// way. allure-vitest records what vitest saw: an assertion error is "failed", any other error (a
// model-based check throws its shortest sequence) is "broken", and a warning, a failed expectation
// that the verdict forgives, keeps its red step. The verdict decides instead: a MUST failure is
// failed wherever it shows, a suite defect broken, a rule not verified skipped, and a warning passed
// with nothing on its page drawn as an error: what the target did is its description, in words.

import { type Outcome, testLook } from '../judging/states.ts';
import type { JudgedState } from '../judging/verdict.ts';
import { fenced } from './markdown-code.ts';

interface StatusDetails {
  message?: string;
  trace?: string;
  actual?: string;
  expected?: string;
  [other: string]: unknown;
}

/** A step of a result, as allure-vitest writes it: nested steps and attachments. */
export interface AllureStep {
  name?: string;
  status?: string;
  statusDetails?: StatusDetails;
  steps?: AllureStep[];
  attachments?: unknown[];
  [other: string]: unknown;
}

export interface AllureResult extends AllureStep {
  labels?: { name: string; value: string }[];
  description?: string;
  descriptionHtml?: string;
}

export interface JudgedShowing {
  state: JudgedState;
  outcome: Outcome;
  /** The verdict's reason, for a result whose own message says nothing. */
  reason?: string;
  /** For a warning, what its text says first (WARNING and its level). */
  warning?: string;
}

const wentWrong = (status: string | undefined) => status === 'failed' || status === 'broken';

/** Every step that went wrong in a MUST failure is failed too: the failure's evidence, one colour with it. */
function failedSteps(steps: AllureStep[] | undefined): AllureStep[] | undefined {
  return steps?.map((step) => ({
    ...step,
    ...(wentWrong(step.status) ? { status: 'failed' } : {}),
    steps: failedSteps(step.steps),
  }));
}

/** Without what makes Allure draw an error box: the message, the trace and the diff of a failed expectation. */
function withoutError(details: StatusDetails | undefined): StatusDetails | undefined {
  if (details === undefined) return undefined;
  const { message: _message, trace: _trace, actual: _actual, expected: _expected, ...rest } = details;
  return rest;
}

/**
 * A warning's steps without the errors: a step that went wrong is the expectation the verdict forgave,
 * and its message goes to the description (pushed onto `messages`, in order). Such a step is left out,
 * or, if it holds attachments or steps, kept with neither status nor error, so that nothing it held
 * is lost and nothing on the page is red.
 */
function forgivenSteps(steps: AllureStep[] | undefined, messages: string[]): AllureStep[] | undefined {
  return steps?.flatMap((step): AllureStep[] => {
    const inner = forgivenSteps(step.steps, messages);
    if (!wentWrong(step.status)) return [{ ...step, steps: inner }];
    const message = step.statusDetails?.message;
    if (message) messages.push(message);
    if ((inner ?? []).length === 0 && (step.attachments ?? []).length === 0) return [];
    const { status: _forgiven, statusDetails, ...kept } = step;
    return [{ ...kept, statusDetails: withoutError(statusDetails), steps: inner }];
  });
}

/**
 * Text from the shop as a Markdown code block, which Allure shows as text, never as markup or
 * Markdown. The fence is longer than any run of backticks in the text, so nothing in it can close it.
 * Markdown, not HTML made here: Allure escapes it when it builds the report, after the launcher has
 * masked the secrets in these files, which an escaping made here could hide from the masker.
 */
function codeBlock(text: string): string {
  return fenced(text, 'text').join('\n');
}

/**
 * A warning as Allure shows it: passed, no error box anywhere, and its text (WARNING and its level,
 * then what the target did and the exchange) as the description, before whatever description it had.
 */
function asWarning(result: AllureResult, { state, warning = '', reason }: JudgedShowing): AllureResult {
  const stepMessages: string[] = [];
  const steps = forgivenSteps(result.steps, stepMessages);
  const own = result.statusDetails?.message || reason;
  // A test's message is usually its failed step's message again: each text is told once.
  const messages = [...new Set([own, ...stepMessages].filter((m): m is string => m !== undefined && m !== ''))];
  const text = messages.length === 0 ? warning : `${warning}:\n\n${codeBlock(messages.join('\n\n'))}`;
  // The suites write no description of their own. One in HTML would hide this one (Allure prefers
  // it), so only a Markdown one would be kept, after the warning.
  const { statusDetails, descriptionHtml: _hidesTheWarning, ...rest } = result;
  return {
    ...rest,
    statusDetails: withoutError(statusDetails),
    status: testLook(state).filedAs.allure,
    steps,
    description: [text, result.description].filter(Boolean).join('\n\n'),
  };
}

/** The result as the verdict judged it: its status, its steps and its text. */
export function shownAsJudged(result: AllureResult, judged: JudgedShowing): AllureResult {
  if (judged.warning !== undefined) return asWarning(result, judged);
  const shown: AllureResult = { ...result, status: testLook(judged.state).filedAs.allure };
  if (judged.state === 'failed') shown.steps = failedSteps(result.steps);
  // vitest knows a skip but not why, and a check with no request behind it may even have passed: the
  // verdict's reason fills in a message it has not got. So does a MUST failure vitest did not see.
  if (!result.statusDetails?.message && judged.reason)
    shown.statusDetails = { ...result.statusDetails, message: judged.reason };
  return shown;
}
