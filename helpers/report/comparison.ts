// `--baseline`: an earlier conformance.json read as a night of the history, whose changesSince gives the
// tables of what is new since then and lets a regression alert (`--fail-on new`) ring on new MUST
// failures alone. The certificate's verdict never changes.

import { readFileSync } from 'node:fs';
import { CannotRunError } from '../exit-codes.ts';
import { exitCodeOf, RULE_STATUSES, VERDICTS } from '../judging/states.ts';
import { verdictOf } from '../judging/verdict.ts';
import type { Comparison, ConformanceJson, ConformanceReport, RuleChange } from './certificate.ts';
import { changesSince, type Night, nightOf, sameShop } from './history.ts';

/** An earlier conformance.json, read as the night it was: the shape the nights history holds. */
export interface Baseline {
  path: string;
  night: Night;
}

function refuse(path: string, why: string): never {
  throw new CannotRunError(`--baseline ${path}: ${why}`);
}

/** Reads an earlier conformance.json; anything else stops the run before a request (exit 3), naming the file. */
export function readBaseline(path: string): Baseline {
  let report: Partial<ConformanceReport> | null;
  try {
    report = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const problem = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    return refuse(path, `cannot be read as JSON: ${problem}`);
  }
  const verdict = String(report?.verdict);
  if (report?.suite !== 'zones-conformance' || !Object.hasOwn(VERDICTS, verdict))
    return refuse(path, 'is not a conformance.json of zones-conformance');
  if (verdict === 'could-not-run') return refuse(path, 'is the report of a run that could not run: it judged no rule');
  if (verdict === 'could-not-complete')
    return refuse(
      path,
      "is the report of a run that could not complete: the shop stopped answering partway, so it judged only part of the shop. Compare with an earlier night's conformance.json",
    );
  const rules = Array.isArray(report.rules) ? report.rules : [];
  const statuses = rules.every((rule) => typeof rule?.id === 'string' && RULE_STATUSES.includes(rule?.status));
  if (rules.length === 0 || !statuses) return refuse(path, 'has no rule results with a status to compare with');
  // Read as tonight's certificate is, so that a suite defect then is one now; what the file does not
  // record is '' (see Night), never held against it.
  const { baseUrl = '', embedded = false, settings = {} } = report.target ?? {};
  const night = nightOf({
    ...(report as ConformanceReport),
    runId: String(report.runId ?? ''),
    startedAt: String(report.startedAt ?? ''),
    target: { ...report.target, baseUrl, embedded, settings } as ConformanceReport['target'],
    rules: rules.map((rule) => ({ ...rule, tests: Array.isArray(rule.tests) ? rule.tests : [] })),
  });
  return { path, night };
}

/**
 * Refuses (exit 3) a baseline of another shop or API version, before a request: a rule "fixed" or
 * "broken" would be the difference between the two, and --fail-on new would ring for it, or not.
 */
export function refuseOtherTarget({ path, night }: Baseline, target: Night['target']): void {
  const refuseAs = (why: string) =>
    refuse(
      path,
      `${why}; its rule statuses say nothing about tonight's run. Compare with a conformance.json of this target and version, or run without --baseline`,
    );
  const named = ({ embedded, baseUrl }: Night['target']) =>
    embedded ? 'the embedded reference' : baseUrl || 'an unknown target';
  if (!sameShop(night.target, target))
    refuseAs(`certified another target, ${named(night.target)}, not ${named(target)}`);
  const { apiVersion } = night.target;
  if (apiVersion !== '' && apiVersion !== target.apiVersion)
    refuseAs(`certified API version ${apiVersion}, not ${target.apiVersion} (ZONES_API_VERSION)`);
}

/** The lists of `comparison`, each one kind of change, as every output labels them. */
const CHANGE_LISTS = [
  ['newFailures', 'new-failure', 'new failures'],
  ['fixed', 'fixed', 'fixed'],
  ['stillFailing', 'still-failing', 'still failing'],
  ['newlyNotVerified', 'newly-not-verified', 'newly not verified'],
  ['newlyVerified', 'newly-verified', 'newly verified'],
] as const satisfies readonly [keyof Comparison, RuleChange['change'], string][];

/** conformance.json's `comparison`, from changesSince. `selected`: false for a rule a --rule run left out. */
export function compare(
  report: ConformanceReport,
  { path, night }: Baseline,
  failOn: 'new' | null,
  selected: (id: string) => boolean = () => true,
): Comparison {
  const tonight = new Map(report.rules.map((rule) => [rule.id, rule]));
  const changes = changesSince(night, nightOf(report), selected).map(({ id, change }): RuleChange => {
    const { level, status } = tonight.get(id)!;
    return { id, level, before: night.rules[id] ?? 'absent', now: status, change };
  });
  const lists = Object.fromEntries(
    CHANGE_LISTS.map(([key, change]) => [key, changes.filter((rule) => rule.change === change)]),
  ) as Record<(typeof CHANGE_LISTS)[number][0], RuleChange[]>;
  // With --fail-on new an old failure no longer counts: the exit code is that of the verdict without it,
  // so a MUST rule not verified or a suite error still gives 2, as without a baseline.
  const newIds = new Set(lists.newFailures.map((rule) => rule.id));
  const counted = report.rules.filter((rule) => rule.status !== 'failed' || newIds.has(rule.id));
  const { runId, startedAt, verdict, target } = night;
  return {
    baseline: { path, runId, startedAt, verdict, baseUrl: target.baseUrl || null },
    ...lists,
    failOn,
    exitCode: exitCodeOf(failOn === null ? report.verdict : verdictOf(counted, report.suiteErrors)),
  };
}

/** `UPDATE-01 (MUST)`, or `none`. */
export function listed(rules: readonly RuleChange[]): string {
  return rules.length === 0 ? 'none' : rules.map((rule) => `${rule.id} (${rule.level.toUpperCase()})`).join(', ');
}

export function comparisonLines(comparison: Comparison): { label: string; rules: RuleChange[] }[] {
  return CHANGE_LISTS.map(([key, , label]) => ({ label, rules: comparison[key] }));
}

/** The run's exit code and, where it is not the verdict's own, why: the same words in every output. */
export function exitCodeText(report: ConformanceJson): string {
  if (report.verdict === 'could-not-run') return String(report.exitCode);
  if (report.stopped) return `${report.exitCode}, stopped by ${report.stopped.signal}`;
  const comparison = report.outage ? undefined : report.comparison;
  if (comparison === undefined) return String(report.exitCode);
  if (comparison.failOn === null) return `${comparison.exitCode}, the verdict's`;
  return `${comparison.exitCode} by --fail-on new (new MUST failures only; the verdict's own is ${exitCodeOf(report.verdict)})`;
}

export function renderComparison(report: ConformanceReport, comparison: Comparison): string[] {
  const { baseline } = comparison;
  return [
    '## Since the baseline',
    '',
    `Compared with ${baseline.path}: run ${baseline.runId} of ${baseline.startedAt}, verdict ${baseline.verdict}.`,
    '',
    '| Change | Rules |',
    '|---|---|',
    ...comparisonLines(comparison).map(({ label, rules }) => `| ${label} | ${listed(rules)} |`),
    '',
    `A failure of a SHOULD or MAY rule is a warning. Exit code ${exitCodeText(report)}.`,
    '',
  ];
}
