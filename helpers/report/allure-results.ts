// allure-vitest writes a result per test as vitest saw it; the verdict is judged later, by the
// launcher. Once it is known, the results get what only the verdict knows: each test's outcome as a
// label (so the HTML report's categories say what the certificate says), the state the certificate
// gives it (allure-states.ts), and the run's environment (target, version, verdict, settings without
// secrets) as environment.properties.
// The results are also written from inside the workers, beyond the reach of the report writers: their
// steps quote the values each check was given, which are the answers as the target sent them. So every
// file then goes through the same masker as every report.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Secrets } from '../evidence/secrets.ts';
import { testLook, warningPrefix } from '../judging/states.ts';
import { allureLocations, OUTCOME_LABEL } from './allure-layout.ts';
import { type AllureResult, type JudgedShowing as Judged, shownAsJudged } from './allure-states.ts';
import type { ConformanceReport } from './certificate.ts';
import { exitCodeText } from './comparison.ts';
import { targetText } from './conformance-report.ts';
import { leftoverProperties } from './leftovers.ts';

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

/** The result with its outcome as a label, for the categories, and shown as the verdict judged it. */
function withOutcome(result: AllureResult, judged: Judged): AllureResult {
  const labels = (result.labels ?? []).filter((label) => label.name !== OUTCOME_LABEL);
  return shownAsJudged({ ...result, labels: [...labels, { name: OUTCOME_LABEL, value: judged.outcome }] }, judged);
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
    if (verdict) writeFileSync(path, JSON.stringify(withOutcome(result, verdict)));
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
