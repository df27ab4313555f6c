// The nights history, {ZONES_REPORTS_DIR}/conformance-history.jsonl (cached by the nightly job): a line per run
// that judged the shop as a whole (as "the night before", a partial run would mark every rule it did not decide
// as changed), for each rule's last nights, as wpt.fyi shows tests by runs. `--baseline` reads a conformance.json
// as a night too, so changesSince is the one "what changed", --fail-on new's included; the verdict never changes.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Secrets } from '../evidence/secrets.ts';
import { CannotRunError } from '../exit-codes.ts';
import { RULE_STATUSES, type ShownState, shownStateOf, VERDICTS } from '../judging/states.ts';
import { type RuleStatus, type Verdict, verdictOf } from '../judging/verdict.ts';
import type { Change, Comparison, ConformanceReport, RuleChange } from './certificate.ts';

export const HISTORY_FILE = 'conformance-history.jsonl';
/** About three months of nightly runs, a few hundred bytes each: small enough for any CI cache. */
export const HISTORY_MAX_NIGHTS = 100;

export interface Night {
  runId: string;
  startedAt: string;
  verdict: Verdict;
  /** `''` for what a --baseline file did not record, which is not held against it (sameShop). */
  target: { baseUrl: string; embedded: boolean; apiVersion: string };
  /** Each rule's status, exactly as conformance.json has it. */
  rules: Record<string, RuleStatus>;
  /** The rules not verified because a test of them was a suite defect. */
  suiteDefects: string[];
}

/** The history as a page or summary shows it: this target's nights, and where they are kept. */
export interface TargetHistory {
  path: string;
  /** This target's nights, oldest first by when each started; tonight last when it was kept. */
  nights: Night[];
  /** Tonight is in `nights`: false for a run not kept (whyNotKept), or when the file could not be written. */
  tonightKept: boolean;
  /** Lines of the file that were not a night, skipped. */
  unreadable?: number;
  /** Why the file could not be read or written, if so; the reports are written all the same. */
  problem?: { during: 'reading' | 'writing'; message: string };
  /** The night `--baseline` named, which tonight is compared with instead of the night before it. */
  baseline?: Night;
}

/** Tonight as a line of the history; the run need not be one the history keeps (see whyNotKept). */
export function nightOf(report: ConformanceReport): Night {
  const apiVersion = report.target.settings.apiVersion;
  return {
    runId: report.runId,
    startedAt: report.startedAt,
    verdict: report.verdict,
    target: {
      baseUrl: report.target.baseUrl,
      embedded: report.target.embedded,
      apiVersion: typeof apiVersion === 'string' ? apiVersion : '',
    },
    rules: Object.fromEntries(report.rules.map((rule) => [rule.id, rule.status])),
    suiteDefects: report.rules.filter((rule) => shownStateOf(rule) === 'suite-defect').map((rule) => rule.id),
  };
}

/** Why a run is not one the history keeps, in the words the page says it; none for one that judged the shop as a whole. */
export function whyNotKept(report: ConformanceReport): string | undefined {
  if (report.selection) return `a partial run (--rule ${report.selection.rule}) does not judge the shop as a whole`;
  if (report.verdict === 'could-not-complete') return 'a run the shop went away from partway gave no verdict on it';
  if (report.stopped) return 'a run stopped before every test had run does not judge the shop as a whole';
  return undefined;
}

/** A night is a run that started: one that could not judged no rule. */
const NIGHT_VERDICTS: string[] = Object.keys(VERDICTS).filter((verdict) => verdict !== 'could-not-run');

/** A line of the file as a night, or undefined for anything else: a torn write, an edit, another tool's line. */
function parseNight(line: string): Night | undefined {
  let night: Partial<Night> | null;
  try {
    night = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof night !== 'object' || night === null) return undefined;
  const { target, rules } = night;
  const valid =
    typeof night.runId === 'string' &&
    typeof night.startedAt === 'string' &&
    // Nights are shown in the order they started: a time that does not parse cannot be placed.
    !Number.isNaN(Date.parse(night.startedAt)) &&
    NIGHT_VERDICTS.includes(night.verdict as string) &&
    typeof target?.baseUrl === 'string' &&
    typeof target.embedded === 'boolean' &&
    typeof target.apiVersion === 'string' &&
    typeof rules === 'object' &&
    rules !== null &&
    !Array.isArray(rules) &&
    Object.values(rules).every((status) => RULE_STATUSES.includes(status));
  if (!valid) return undefined;
  const defects = Array.isArray(night.suiteDefects) ? night.suiteDefects.filter((id) => typeof id === 'string') : [];
  return { ...(night as Night), suiteDefects: defects };
}

/** Every night the file holds, in file order, and how many lines were not one. No file: none. */
export function readHistory(path: string): { nights: Night[]; unreadable: number } {
  if (!existsSync(path)) return { nights: [], unreadable: 0 };
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const nights = lines.flatMap((line) => parseNight(line) ?? []);
  return { nights, unreadable: lines.length - nights.length };
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

/** Whether two runs certified one shop: the embedded reference on any port, or the same origin and path; no base URL is no objection. */
export function sameShop(earlier: Night['target'], now: Night['target']): boolean {
  if (earlier.embedded || now.embedded) return earlier.embedded === now.embedded;
  return earlier.baseUrl === '' || targetKey(earlier.baseUrl) === targetKey(now.baseUrl);
}

/** Writes the last HISTORY_MAX_NIGHTS nights through a temporary file renamed over the old, so a run killed half-way leaves it whole. */
export function writeNights(path: string, nights: readonly Night[], secrets: Secrets): Night[] {
  const kept = nights.slice(-HISTORY_MAX_NIGHTS);
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, secrets.mask(kept.map((each) => `${JSON.stringify(each)}\n`).join('')));
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return kept;
}

/** This target's earlier nights, sorted (a file merged from two caches need not be), then tonight when kept; an older version's could-not-complete nights left out. */
function ofTarget(nights: readonly Night[], tonight: Night, kept: boolean): Night[] {
  const earlier = nights
    .filter(
      (night) =>
        night.runId !== tonight.runId &&
        night.verdict !== 'could-not-complete' &&
        night.target.apiVersion === tonight.target.apiVersion &&
        sameShop(night.target, tonight.target),
    )
    .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt));
  return kept ? [...earlier, tonight] : earlier;
}

/** The history after tonight, appended when kept. A bad file costs the strips, never the reports; one unread is not written over. */
export function recordNight(
  report: ConformanceReport,
  options: { reportsDir: string; secrets: Secrets },
): TargetHistory {
  const path = join(options.reportsDir, HISTORY_FILE);
  const tonight = nightOf(report);
  let file: ReturnType<typeof readHistory>;
  try {
    file = readHistory(path);
  } catch (error) {
    return { path, nights: [], tonightKept: false, problem: { during: 'reading', message: (error as Error).message } };
  }
  const notKept = {
    path,
    unreadable: file.unreadable,
    nights: ofTarget(file.nights, tonight, false),
    tonightKept: false,
  };
  if (whyNotKept(report) !== undefined) return notKept;
  try {
    const written = writeNights(path, [...file.nights, tonight], options.secrets);
    return { ...notKept, nights: ofTarget(written, tonight, true), tonightKept: true };
  } catch (error) {
    return { ...notKept, problem: { during: 'writing', message: (error as Error).message } };
  }
}

/** A rule's state on a night, or `absent` when that night's catalogue had no such rule. */
export function stateOn(night: Night, ruleId: string): ShownState | 'absent' {
  const status = night.rules[ruleId];
  if (status === undefined) return 'absent';
  return night.suiteDefects.includes(ruleId) ? 'suite-defect' : status;
}

/** A rule's state on each night of a strip; tonight's, for a rule a --rule run left out, is its own: not checked, not "not verified". */
export function stripStates(strip: readonly Night[], ruleId: string, selected: boolean) {
  return strip.map((night, index) =>
    index === strip.length - 1 && !selected ? 'not-selected' : stateOn(night, ruleId),
  );
}

const broken = (status: RuleStatus | 'absent') => status === 'failed' || status === 'warning';

function changeOf(before: RuleStatus | 'absent', now: RuleStatus): Change {
  if (broken(now)) return broken(before) ? 'still-failing' : 'new-failure';
  if (now === 'passed') return broken(before) ? 'fixed' : before === 'not-verified' ? 'newly-verified' : 'unchanged';
  return before === 'not-verified' ? 'unchanged' : 'newly-not-verified';
}

/**
 * Each of tonight's rules against the night before: the page's ▲, the summary, the tables and --fail-on new read it.
 * `before` and `now` as the page and the summary show them; `change` on conformance.json's statuses.
 */
export function changesSince(before: Night, tonight: Night, selected: (id: string) => boolean) {
  return Object.keys(tonight.rules).map((id) => {
    const change: Change = selected(id) ? changeOf(before.rules[id] ?? 'absent', tonight.rules[id]!) : 'not-selected';
    return { id, before: stateOn(before, id), now: stateOn(tonight, id) as ShownState, change };
  });
}

/** A rule a --rule run left out is not verified, but there is nothing to look into: no report details it. */
export function isSelected(report: Pick<ConformanceReport, 'selection'>, ruleId: string): boolean {
  return report.selection === undefined || report.selection.rules.includes(ruleId);
}

/** The page's and the summary's nights: the last `max`, tonight last, kept or not; the night compared with (--baseline's, else the one before) and what changed. */
export function nightsShown(
  history: TargetHistory | undefined,
  tonight: Night,
  selected: (id: string) => boolean,
  max: number,
): { strip: Night[]; before?: Night; changed: ReturnType<typeof changesSince> } {
  const earlier = history?.nights.filter((night) => night.runId !== tonight.runId) ?? [];
  const strip = [...earlier, tonight].slice(-max);
  const before = history?.baseline ?? earlier.at(-1);
  if (before === undefined) return { strip, changed: [] };
  const changes = changesSince(before, tonight, selected);
  return {
    strip,
    before,
    changed: changes.filter((rule) => rule.change !== 'not-selected' && rule.before !== rule.now),
  };
}

function refuse(path: string, why: string): never {
  throw new CannotRunError(`--baseline ${path}: ${why}`);
}

/** An earlier conformance.json, read as the night it was: the shape the nights history holds. */
export type Baseline = ReturnType<typeof readBaseline>;

/** Reads an earlier conformance.json; anything else stops the run before a request (exit 3), naming the file. */
export function readBaseline(path: string) {
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
  // Read as tonight's certificate is, so that a suite defect then is one now; what it lacks is '' (see Night).
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

/** Refuses (exit 3), before a request, a baseline of another shop or API version: its changes would be the difference between the two. */
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

/** conformance.json's `comparison`, from changesSince; a rule a --rule run left out is not selected. */
export function compare(report: ConformanceReport, { path, night }: Baseline, failOn: 'new' | null): Comparison {
  const tonight = new Map(report.rules.map((rule) => [rule.id, rule]));
  const changes = changesSince(night, nightOf(report), (id) => isSelected(report, id)).map(
    ({ id, change }): RuleChange => {
      const { level, status } = tonight.get(id)!;
      return { id, level, before: night.rules[id] ?? 'absent', now: status, change };
    },
  );
  const lists = Object.fromEntries(
    CHANGE_LISTS.map(([key, change]) => [key, changes.filter((rule) => rule.change === change)]),
  ) as Record<(typeof CHANGE_LISTS)[number][0], RuleChange[]>;
  // With --fail-on new, the verdict without the old failures: a MUST rule not verified or a suite error still gives 2.
  const newIds = new Set(lists.newFailures.map((rule) => rule.id));
  const counted = report.rules.filter((rule) => rule.status !== 'failed' || newIds.has(rule.id));
  const { runId, startedAt, verdict, target } = night;
  return {
    baseline: { path, runId, startedAt, verdict, baseUrl: target.baseUrl || null },
    ...lists,
    failOn,
    exitCode: VERDICTS[failOn === null ? report.verdict : verdictOf(counted, report.suiteErrors)].exitCode,
  };
}

/** The comparison's lists as every output shows them: a label, and `UPDATE-01 (MUST), ...` or `none`. */
export function comparisonLines(comparison: Comparison): { label: string; rules: string }[] {
  return CHANGE_LISTS.map(([key, , label]) => {
    const rules = comparison[key].map((rule) => `${rule.id} (${rule.level.toUpperCase()})`);
    return { label, rules: rules.length === 0 ? 'none' : rules.join(', ') };
  });
}
