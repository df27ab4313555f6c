// The nights history: one line per run that judged the shop as a whole, kept between runs in
// {ZONES_REPORTS_DIR}/conformance-history.jsonl (the nightly job caches it), so that the certificate
// page and the job summary can show each rule's last nights and what changed since the night before,
// as wpt.fyi shows tests by runs. Only a run that judged the shop as a whole is kept: a partial (--rule)
// or interrupted run says nothing about the rules it did not reach, a run that could not complete (the
// shop went away partway) gave no verdict on the shop, and a run that could not run judged none. Kept,
// any of them would become "the night before" and mark as changed every rule it did not decide. The
// CI baseline (conformance.json kept on exit 0, 1 or 2) rests on the same nights, and `--baseline`
// reads its file as a night (comparison.ts): changesSince, here, is the one answer to "what changed".
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Secrets } from '../evidence/secrets.ts';
import { RULE_STATUSES, type ShownState, shownStateOf, VERDICTS } from '../judging/states.ts';
import type { RuleStatus, Verdict } from '../judging/verdict.ts';
import type { Change, ConformanceReport } from './certificate.ts';

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
  /** The file, as ZONES_REPORTS_DIR names it. */
  path: string;
  /** This target's nights, oldest first by when each started; tonight last when it was kept. */
  nights: Night[];
  /** Tonight is in `nights`: false for a run not kept (whyNotKept), or when the file could not be written. */
  tonightKept: boolean;
  /** Lines of the file that were not a night (a torn write, an edit, another tool's line), skipped. */
  unreadable?: number;
  /**
   * Why the file could not be read or written, if so; the reports are written all the same. Read first
   * and apart from the write, so a file that cannot be written still shows its earlier nights.
   */
  problem?: HistoryProblem;
  /** The night `--baseline` named, which tonight is compared with instead of the night before it (changesTonight). */
  baseline?: Night;
}

export interface HistoryProblem {
  during: 'reading' | 'writing';
  message: string;
}

export function historyPath(reportsDir: string): string {
  return join(reportsDir, HISTORY_FILE);
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

/**
 * Why a run is not one the history keeps, in the words the page says it; none for a run that judged
 * the shop as a whole (not a --rule run, not one stopped by a signal, not one the shop went away from).
 */
export function whyNotKept(report: ConformanceReport): string | undefined {
  if (report.selection) return `a partial run (--rule ${report.selection.rule}) does not judge the shop as a whole`;
  if (report.verdict === 'could-not-complete') return 'a run the shop went away from partway gave no verdict on it';
  if (report.stopped) return 'a run stopped before every test had run does not judge the shop as a whole';
  return undefined;
}

/** A night is a run that started: one that could not judged no rule. */
const NIGHT_VERDICTS = Object.keys(VERDICTS).filter((verdict) => verdict !== 'could-not-run');

/** A line of the file as a night, or undefined for anything else: a torn write, an edit, another tool's line. */
export function parseNight(line: string): Night | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const night = value as Partial<Night>;
  const target = night.target as Partial<Night['target']> | undefined;
  const rules = night.rules as Record<string, unknown> | undefined;
  const valid =
    typeof night.runId === 'string' &&
    typeof night.startedAt === 'string' &&
    // Nights are shown in the order they started: a time that does not parse cannot be placed.
    !Number.isNaN(Date.parse(night.startedAt)) &&
    NIGHT_VERDICTS.includes(night.verdict as string) &&
    typeof target === 'object' &&
    target !== null &&
    typeof target.baseUrl === 'string' &&
    typeof target.embedded === 'boolean' &&
    typeof target.apiVersion === 'string' &&
    typeof rules === 'object' &&
    rules !== null &&
    !Array.isArray(rules) &&
    Object.values(rules).every((status) => RULE_STATUSES.includes(status as RuleStatus));
  if (!valid) return undefined;
  const defects = Array.isArray(night.suiteDefects) ? night.suiteDefects.filter((id) => typeof id === 'string') : [];
  return { ...(night as Night), suiteDefects: defects };
}

/** The file as read: its nights in file order, and how many lines were not one. */
export interface HistoryFile {
  nights: Night[];
  unreadable: number;
}

/** Every night the file holds, in file order; a line that does not parse is counted and skipped. No file: none. */
export function readHistory(path: string): HistoryFile {
  if (!existsSync(path)) return { nights: [], unreadable: 0 };
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const nights = lines.flatMap((line) => parseNight(line) ?? []);
  return { nights, unreadable: lines.length - nights.length };
}

export function readNights(path: string): Night[] {
  return readHistory(path).nights;
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
export function sameShop(earlier: Night['target'], now: Night['target']): boolean {
  if (earlier.embedded || now.embedded) return earlier.embedded === now.embedded;
  return earlier.baseUrl === '' || targetKey(earlier.baseUrl) === targetKey(now.baseUrl);
}

const byStart = (a: Night, b: Night) => Date.parse(a.startedAt) - Date.parse(b.startedAt);

/**
 * The nights of one target, oldest first by when each started (a file merged from two caches, or
 * edited, need not be in order): the same shop (as --baseline judges it) at the same API version. A
 * could-not-complete night, which an earlier version of the suite kept, is left out for the reason
 * this file's comment gives.
 */
export function nightsOfTarget(nights: readonly Night[], target: Night['target']): Night[] {
  return nights
    .filter(
      (night) =>
        night.verdict !== 'could-not-complete' &&
        night.target.apiVersion === target.apiVersion &&
        sameShop(night.target, target),
    )
    .sort(byStart);
}

/**
 * Writes `nights`, the last HISTORY_MAX_NIGHTS of them, as the whole file, and returns what it wrote.
 * Written to a temporary file and renamed over the old one, so a run killed half-way leaves last
 * night's file as it was, never half a line; a write or rename that fails takes its temporary file
 * with it.
 */
function writeNights(path: string, nights: readonly Night[], secrets: Secrets): Night[] {
  const kept = nights.slice(-HISTORY_MAX_NIGHTS);
  const text = kept.map((each) => `${JSON.stringify(each)}\n`).join('');
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, secrets.mask(text));
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  return kept;
}

/** Adds tonight to the file and keeps its last HISTORY_MAX_NIGHTS lines; lines that did not parse are dropped then. */
export function appendNight(path: string, night: Night, secrets: Secrets): Night[] {
  return writeNights(path, [...readNights(path), night], secrets);
}

/** This target's earlier nights, and tonight last when it was kept. */
function ofTarget(nights: readonly Night[], tonight: Night, kept: boolean): Night[] {
  const earlier = nightsOfTarget(
    nights.filter((night) => night.runId !== tonight.runId),
    tonight.target,
  );
  return kept ? [...earlier, tonight] : earlier;
}

/**
 * What the reports show of the history after tonight's run: the file read first, then tonight
 * appended when the run is one to keep (whyNotKept), then this target's nights. A file that cannot be read or
 * written costs the strips, never the reports: the problem is said on the page. One that cannot be
 * read is not written either, since that would replace the nights in it with tonight alone; one that
 * cannot be written still shows the nights it holds.
 */
export function recordNight(
  report: ConformanceReport,
  options: { reportsDir: string; secrets: Secrets },
): TargetHistory {
  const path = historyPath(options.reportsDir);
  const tonight = nightOf(report);
  let file: HistoryFile;
  try {
    file = readHistory(path);
  } catch (error) {
    return { path, nights: [], tonightKept: false, problem: { during: 'reading', message: (error as Error).message } };
  }
  const read = { path, unreadable: file.unreadable };
  if (whyNotKept(report) !== undefined)
    return { ...read, nights: ofTarget(file.nights, tonight, false), tonightKept: false };
  try {
    const written = writeNights(path, [...file.nights, tonight], options.secrets);
    return { ...read, nights: ofTarget(written, tonight, true), tonightKept: true };
  } catch (error) {
    return {
      ...read,
      nights: ofTarget(file.nights, tonight, false),
      tonightKept: false,
      problem: { during: 'writing', message: (error as Error).message },
    };
  }
}

/** A rule's state on a night, or `absent` when that night's catalogue had no such rule. */
export function stateOn(night: Night, ruleId: string): ShownState | 'absent' {
  const status = night.rules[ruleId];
  if (status === undefined) return 'absent';
  return night.suiteDefects.includes(ruleId) ? 'suite-defect' : status;
}

/** The nights a strip shows, oldest first and tonight last, whether or not tonight was kept. */
export function stripNights(history: TargetHistory, tonight: Night, max: number): Night[] {
  const earlier = history.nights.filter((night) => night.runId !== tonight.runId);
  return [...earlier, tonight].slice(-max);
}

export interface NightChange {
  id: string;
  /** The states the page and the summary show, a suite defect one of its own. */
  before: ShownState | 'absent';
  now: ShownState;
  /** What the comparison tables and --fail-on new read, judged on conformance.json's statuses. */
  change: Change;
}

const broken = (status: RuleStatus | 'absent') => status === 'failed' || status === 'warning';

function changeOf(before: RuleStatus | 'absent', now: RuleStatus): Change {
  if (broken(now)) return broken(before) ? 'still-failing' : 'new-failure';
  if (now === 'passed') return broken(before) ? 'fixed' : before === 'not-verified' ? 'newly-verified' : 'unchanged';
  return before === 'not-verified' ? 'unchanged' : 'newly-not-verified';
}

/**
 * Each of tonight's rules against the night before, the one answer to "what changed" that the page's
 * ▲, the summary, the comparison tables and --fail-on new all read. A rule a --rule run left out is
 * not-selected: it was not checked tonight.
 */
export function changesSince(before: Night, tonight: Night, selected: (id: string) => boolean): NightChange[] {
  return Object.keys(tonight.rules).map((id) => {
    const change = selected(id) ? changeOf(before.rules[id] ?? 'absent', tonight.rules[id]!) : 'not-selected';
    return { id, before: stateOn(before, id), now: stateOn(tonight, id) as ShownState, change };
  });
}

/**
 * What the page marks ▲ and the summary lists: the night tonight is compared with (the one --baseline
 * named, else the night before tonight in this target's history, none on a first night) and the rules
 * checked tonight whose state is not as it was then.
 */
export function changesTonight(
  history: TargetHistory,
  tonight: Night,
  selected: (id: string) => boolean,
): { before?: Night; changed: NightChange[] } {
  const before = history.baseline ?? history.nights.filter((night) => night.runId !== tonight.runId).at(-1);
  if (before === undefined) return { changed: [] };
  const changes = changesSince(before, tonight, selected);
  return { before, changed: changes.filter((rule) => rule.change !== 'not-selected' && rule.before !== rule.now) };
}
