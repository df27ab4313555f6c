// Night over night: tonight's rules against an earlier conformance.json (`--baseline`), so that the
// morning's question "what is new since last night?" has an answer, and a regression alert
// (`--fail-on new`) can ring on new MUST failures alone. The certificate's verdict never changes.

import { readFileSync } from 'node:fs';
import { CannotRunError, EXIT } from '../exit-codes.ts';
import { exitCodeOf, RULE_STATUSES } from '../judging/states.ts';
import type { RuleStatus } from '../judging/verdict.ts';
import type { Change, Comparison, ConformanceReport, RuleChange } from './certificate.ts';

interface BaselineRule {
  id: string;
  status: RuleStatus;
}

export interface Baseline {
  path: string;
  runId: string;
  startedAt: string;
  verdict: string;
  baseUrl: string | null;
  /** Which shop and which version of the API it certified, to refuse one of another (sameTargetAs). */
  of: { embedded: boolean; apiVersion: string | null };
  rules: BaselineRule[];
}

/** Reads an earlier conformance.json; anything else stops the run before a request (exit 3), naming the file. */
export function readBaseline(path: string): Baseline {
  const refuse = (why: string): never => {
    throw new CannotRunError(`--baseline ${path}: ${why}`);
  };
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const problem = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    return refuse(`cannot be read as JSON: ${problem}`);
  }
  const report = parsed as Partial<Omit<ConformanceReport, 'verdict'>> & { verdict?: string };
  if (report === null || typeof report !== 'object' || report.suite !== 'zones-conformance') {
    return refuse('is not a conformance.json of zones-conformance');
  }
  if (report.verdict === 'could-not-run') return refuse('is the report of a run that could not run: it judged no rule');
  if (report.verdict === 'could-not-complete')
    return refuse(
      "is the report of a run that could not complete: the shop stopped answering partway, so it judged only part of the shop. Compare with an earlier night's conformance.json",
    );
  const rules = Array.isArray(report.rules) ? report.rules : [];
  const valid = rules.every(
    (rule) => typeof rule?.id === 'string' && RULE_STATUSES.includes(rule?.status as RuleStatus),
  );
  if (rules.length === 0 || !valid) return refuse('has no rule results with a status to compare with');
  const apiVersion = report.target?.settings?.apiVersion;
  return {
    path,
    runId: String(report.runId ?? ''),
    startedAt: String(report.startedAt ?? ''),
    verdict: String(report.verdict ?? ''),
    baseUrl: report.target?.baseUrl ?? null,
    of: {
      embedded: report.target?.embedded === true,
      apiVersion: typeof apiVersion === 'string' ? apiVersion : null,
    },
    rules: rules.map((rule) => ({ id: rule.id, status: rule.status })),
  };
}

/** A base URL as one target: the URL parser's spelling of its scheme and host, without a trailing slash. */
function targetKey(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return baseUrl.replace(/\/+$/, '');
  }
}

/**
 * Whether two runs certified one shop: both the embedded reference, whatever port each got, or the
 * same origin and path. An earlier run that recorded no base URL is not held against it.
 */
export function sameShop(
  earlier: { baseUrl: string | null; embedded: boolean },
  now: { baseUrl: string; embedded: boolean },
): boolean {
  if (earlier.embedded || now.embedded) return earlier.embedded === now.embedded;
  return earlier.baseUrl === null || targetKey(earlier.baseUrl) === targetKey(now.baseUrl);
}

/**
 * Refuses (exit 3) a baseline of another shop or another API version, before a request: compared, a
 * rule fixed or broken "since last night" would be the difference between two shops or two versions,
 * and --fail-on new would ring, or stay silent, for it. Two runs on the embedded reference are of one
 * target, whatever port each got. What a baseline does not record is not held against it.
 */
export function refuseOtherTarget(
  baseline: Baseline,
  target: { baseUrl: string; embedded: boolean; apiVersion: string },
): void {
  const refuse = (why: string): never => {
    throw new CannotRunError(
      `--baseline ${baseline.path}: ${why}; its rule statuses say nothing about tonight's run. Compare with a conformance.json of this target and version, or run without --baseline`,
    );
  };
  const named = (embedded: boolean, baseUrl: string | null) =>
    embedded ? 'the embedded reference' : (baseUrl ?? 'an unknown target');
  if (!sameShop({ baseUrl: baseline.baseUrl, embedded: baseline.of.embedded }, target))
    refuse(
      `certified another target, ${named(baseline.of.embedded, baseline.baseUrl)}, not ${named(target.embedded, target.baseUrl)}`,
    );
  if (baseline.of.apiVersion !== null && baseline.of.apiVersion !== target.apiVersion)
    refuse(`certified API version ${baseline.of.apiVersion}, not ${target.apiVersion} (ZONES_API_VERSION)`);
}

const broken = (status: RuleStatus | 'absent') => status === 'failed' || status === 'warning';

function changeOf(before: RuleStatus | 'absent', now: RuleStatus): Change {
  if (broken(now)) return broken(before) ? 'still-failing' : 'new-failure';
  if (now === 'passed') return broken(before) ? 'fixed' : before === 'not-verified' ? 'newly-verified' : 'unchanged';
  return before === 'not-verified' ? 'unchanged' : 'newly-not-verified';
}

/**
 * The exit code of a run: the verdict's, or with `--fail-on new` 1 for a new MUST failure alone. Old
 * failures then no longer count, but what could not be verified still does: 2 when a MUST rule is not
 * verified or the suite erred, as without a baseline, else 0.
 */
function exitCodeFor(report: ConformanceReport, newFailures: readonly RuleChange[], failOn: 'new' | null): number {
  if (failOn === null) return exitCodeOf(report.verdict);
  if (newFailures.some((rule) => rule.level === 'must')) return EXIT.failed;
  const open = report.rules.some((rule) => rule.level === 'must' && rule.status === 'not-verified');
  return open || report.suiteErrors.length > 0 ? EXIT.incomplete : EXIT.ok;
}

/** `notSelected`: the rules a `--rule` run left out, which say nothing about tonight. */
export function compare(
  report: ConformanceReport,
  baseline: Baseline,
  failOn: 'new' | null,
  notSelected: ReadonlySet<string> = new Set(),
): Comparison {
  const changes = report.rules.map((rule): RuleChange => {
    const before = baseline.rules.find((old) => old.id === rule.id)?.status ?? 'absent';
    const change = notSelected.has(rule.id) ? 'not-selected' : changeOf(before, rule.status);
    return { id: rule.id, level: rule.level, before, now: rule.status, change };
  });
  const of = (change: Change) => changes.filter((rule) => rule.change === change);
  const newFailures = of('new-failure');
  const { rules: _rules, of: _of, ...shownBaseline } = baseline;
  return {
    baseline: shownBaseline,
    newFailures,
    fixed: of('fixed'),
    stillFailing: of('still-failing'),
    newlyNotVerified: of('newly-not-verified'),
    newlyVerified: of('newly-verified'),
    failOn,
    exitCode: exitCodeFor(report, newFailures, failOn),
  };
}

/** `UPDATE-01 (MUST)`, or `none`. */
export function listed(rules: readonly RuleChange[]): string {
  return rules.length === 0 ? 'none' : rules.map((rule) => `${rule.id} (${rule.level.toUpperCase()})`).join(', ');
}

export function comparisonLines(comparison: Comparison): { label: string; rules: RuleChange[] }[] {
  return [
    { label: 'new failures', rules: comparison.newFailures },
    { label: 'fixed', rules: comparison.fixed },
    { label: 'still failing', rules: comparison.stillFailing },
    { label: 'newly not verified', rules: comparison.newlyNotVerified },
    { label: 'newly verified', rules: comparison.newlyVerified },
  ];
}

/** The exit code and why, in the words of the console and the md: "exit code " comes before it. */
export function exitCodeNote(report: ConformanceReport, comparison: Comparison): string {
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
    `A failure of a SHOULD or MAY rule is a warning. Exit code ${exitCodeNote(report, comparison)}.`,
    '',
  ];
}
