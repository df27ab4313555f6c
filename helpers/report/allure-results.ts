// allure-vitest writes each result as vitest saw it (a warning with its red step); once the verdict is
// known each is shown as it judged it (states.ts), a warning passed with no error drawn, with its outcome
// as a label for the categories, and the run gets its environment. Written in the workers too, the
// results quote answers as the target sent them, so every file then goes through the masker.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Secrets } from '../evidence/secrets.ts';
import { type Outcome, testLook, warningPrefix } from '../judging/states.ts';
import type { JudgedState } from '../judging/verdict.ts';
import { allureLocations, OUTCOME_LABEL } from './allure-layout.ts';
import type { ConformanceReport } from './certificate.ts';
import { exitCodeText, targetText } from './conformance-report.ts';
import { leftoverProperties } from './leftovers.ts';
import { fenced } from './markdown-code.ts';

type StatusDetails = { message?: string; [other: string]: unknown };

/** A step of a result, as allure-vitest writes it: nested steps and attachments. */
interface AllureStep {
  name?: string;
  status?: string;
  statusDetails?: StatusDetails;
  steps?: AllureStep[];
  attachments?: unknown[];
  [other: string]: unknown;
}

interface AllureResult extends AllureStep {
  labels?: { name: string; value: string }[];
  description?: string;
  descriptionHtml?: string;
}

interface Judged {
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

/** A warning's steps without errors: one that went wrong (as the verdict forgave) gives its message to `messages`, and goes unless it holds anything. */
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

/** A warning as Allure shows it: passed, no error box, and its text (WARNING, then what the target did) as the description. */
function asWarning(result: AllureResult, { state, warning = '', reason }: Judged): AllureResult {
  const stepMessages: string[] = [];
  const steps = forgivenSteps(result.steps, stepMessages);
  const own = result.statusDetails?.message || reason;
  // A test's message is usually its failed step's message again: each text is told once.
  const messages = [...new Set([own, ...stepMessages].filter((m): m is string => m !== undefined && m !== ''))];
  // The shop's text as a Markdown code block, which Allure escapes when it builds the report: escaped
  // here, in HTML, it could hide a secret from the masker that runs before that.
  const text = messages.length === 0 ? warning : `${warning}:\n\n${fenced(messages.join('\n\n'), 'text').join('\n')}`;
  // An HTML description would hide this one (Allure prefers it); the suites write none anyway.
  const { statusDetails, descriptionHtml: _hidesTheWarning, ...rest } = result;
  return {
    ...rest,
    statusDetails: withoutError(statusDetails),
    status: testLook(state).filedAs.allure,
    steps,
    description: [text, result.description].filter(Boolean).join('\n\n'),
  };
}

/** The result as the verdict judged it: its outcome as a label, for the categories, its status, its steps and its text. */
export function shownAsJudged(result: AllureResult, judged: Judged): AllureResult {
  const labels = (result.labels ?? []).filter((label) => label.name !== OUTCOME_LABEL);
  const labelled = { ...result, labels: [...labels, { name: OUTCOME_LABEL, value: judged.outcome }] };
  if (judged.warning !== undefined) return asWarning(labelled, judged);
  const shown: AllureResult = { ...labelled, status: testLook(judged.state).filedAs.allure };
  if (judged.state === 'failed') shown.steps = failedSteps(result.steps);
  // vitest knows a skip but not why, and a check with no request behind it may even have passed: the
  // verdict's reason fills in a message it has not got. So does a MUST failure vitest did not see.
  if (!result.statusDetails?.message && judged.reason)
    shown.statusDetails = { ...result.statusDetails, message: judged.reason };
  return shown;
}

/** Each judged test by its title, which leads with its rule id and is the result's name in Allure. */
function judgedByTitle(report: ConformanceReport): Map<string, Judged> {
  const judged = new Map<string, Judged>();
  for (const rule of report.rules) {
    for (const test of rule.tests) {
      const outcome = testLook(test.state).filedAs.outcome(rule.level);
      const warning = test.state === 'warning' ? warningPrefix(rule.level) : undefined;
      if (outcome) judged.set(test.title, { state: test.state, outcome, reason: test.reason, warning });
    }
  }
  return judged;
}

/** A test outside the catalogue is judged a suite defect and listed only among the suite errors. */
function outsideCatalogue(report: ConformanceReport, name: string): Judged | undefined {
  const error = report.suiteErrors.find((line) => line.startsWith(`${name}: `));
  return error === undefined
    ? undefined
    : { state: 'suite-error', outcome: 'suite defect', reason: error.slice(name.length + 2) };
}

/** A key or value of a .properties file, escaped so that Allure reads back exactly this text. */
function propertiesText(text: string, isKey: boolean): string {
  const escaped = text.replace(
    /[\\\n\r\t\f]/g,
    (c) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\f': '\\f' })[c]!,
  );
  return isKey ? escaped.replace(/[ :=#!]/g, (c) => `\\${c}`) : escaped.replace(/^ /, '\\ ');
}

/** A list of texts (statuses, coverage samples as JSON) reads best as itself, not quoted again. */
function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map(shown).join(', ');
  return JSON.stringify(value);
}

/** What the report's Metadata block shows: the run, the target and every setting (secrets only as set or not). */
export function renderEnvironment(report: ConformanceReport): string {
  const { baseUrl: _sameAsTarget, embedded: _inTarget, ...settings } = report.target.settings;
  const entries: [string, unknown][] = [
    ['target', targetText(report)],
    ['specification', report.specification],
    ['verdict', `${report.verdict} (exit code ${exitCodeText(report)})`],
    ...leftoverProperties(report.leftBehind),
    ['run', `${report.runId}, ${report.startedAt} to ${report.finishedAt}`],
    ['tls', report.target.tls],
    // As in conformance.json, a setting left unset is not listed.
    ...Object.entries(settings).filter(([, value]) => value !== undefined),
  ];
  return `${entries.map(([key, value]) => `${propertiesText(key, true)}=${propertiesText(shown(value), false)}`).join('\n')}\n`;
}

/** Completes the run's allure-results with outcomes and environment; a run that wrote none is left alone. */
export function completeAllureResults(report: ConformanceReport, reportsDir: string): void {
  const { results } = allureLocations(reportsDir);
  if (!existsSync(results)) return;
  const judged = judgedByTitle(report);
  for (const file of readdirSync(results).filter((name) => name.endsWith('-result.json'))) {
    const path = join(results, file);
    const result = JSON.parse(readFileSync(path, 'utf8')) as AllureResult;
    const verdict = judged.get(result.name ?? '') ?? outsideCatalogue(report, result.name ?? '');
    if (verdict) writeFileSync(path, JSON.stringify(shownAsJudged(result, verdict)));
  }
  writeFileSync(join(results, 'environment.properties'), renderEnvironment(report));
}

/** Masks every secret in the run's allure-results; a file without one stays byte for byte as written. */
export function maskAllureResults(reportsDir: string, secrets: Secrets): void {
  const { results } = allureLocations(reportsDir);
  if (!existsSync(results)) return;
  for (const name of readdirSync(results)) {
    const path = join(results, name);
    const text = readFileSync(path, 'utf8');
    const masked = secrets.mask(text);
    if (masked !== text) writeFileSync(path, masked);
  }
}
