// The nights history: one line per run that judged the shop as a whole, kept between runs in
// {ZONES_REPORTS_DIR}/conformance-history.jsonl (the nightly job caches it), so that the certificate
// page and the job summary can show each rule's last nights and what changed since the night before,
// as wpt.fyi shows tests by runs. A partial (--rule) or interrupted run says nothing about the rules it
// did not reach, and a run that could not run judged none: neither is kept.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Secrets } from '../evidence/secrets.ts';
import type { RuleStatus, Verdict } from '../runner/verdict.ts';
import { sameShop } from './comparison.ts';
import type { ConformanceReport } from './conformance-report.ts';
import { isSuiteDefect, type ShownState } from './rule-states.ts';

export const HISTORY_FILE = 'conformance-history.jsonl';
/** About three months of nightly runs, a few hundred bytes each: small enough for any CI cache. */
export const HISTORY_MAX_NIGHTS = 100;

export interface Night {
  runId: string;
  startedAt: string;
  verdict: Verdict;
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
  /** This target's nights, oldest first; tonight last when it was kept. */
  nights: Night[];
  /** Tonight is in `nights`: false for a partial or interrupted run, or when the file could not be written. */
  tonightKept: boolean;
  /** Why the file could not be read or written, if so; the reports are written all the same. */
  problem?: string;
}

export function historyPath(reportsDir: string): string {
  return join(reportsDir, HISTORY_FILE);
}

/** Tonight as a line of the history; the run need not be one the history keeps (see isKept). */
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
    suiteDefects: report.rules.filter(isSuiteDefect).map((rule) => rule.id),
  };
}

/** Whether a run judged the shop as a whole: not a --rule run, not one stopped by a signal. */
export function isKept(report: ConformanceReport, interrupted: boolean): boolean {
  return report.selection === undefined && !interrupted;
}

const STATUSES: readonly string[] = ['passed', 'failed', 'warning', 'not-verified'];
const VERDICTS: readonly string[] = ['conformant', 'non-conformant', 'incomplete', 'could-not-complete'];

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
    VERDICTS.includes(night.verdict as string) &&
    typeof target === 'object' &&
    target !== null &&
    typeof target.baseUrl === 'string' &&
    typeof target.embedded === 'boolean' &&
    typeof target.apiVersion === 'string' &&
    typeof rules === 'object' &&
    rules !== null &&
    !Array.isArray(rules) &&
    Object.values(rules).every((status) => STATUSES.includes(status as string));
  if (!valid) return undefined;
  const defects = Array.isArray(night.suiteDefects) ? night.suiteDefects.filter((id) => typeof id === 'string') : [];
  return { ...(night as Night), suiteDefects: defects };
}

/** Every night the file holds, oldest first; lines that do not parse are skipped. No file: none. */
export function readNights(path: string): Night[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .flatMap((line) => parseNight(line) ?? []);
}

/** The nights of one target: the same shop (as --baseline judges it) at the same API version. */
export function nightsOfTarget(nights: readonly Night[], target: Night['target']): Night[] {
  return nights.filter((night) => night.target.apiVersion === target.apiVersion && sameShop(night.target, target));
}

/**
 * Adds tonight to the file and keeps its last HISTORY_MAX_NIGHTS lines; lines that did not parse are
 * dropped then. Written whole to a temporary file and renamed over the old one, so a run killed
 * half-way leaves last night's file as it was, never half a line.
 */
export function appendNight(path: string, night: Night, secrets: Secrets): Night[] {
  const kept = [...readNights(path), night].slice(-HISTORY_MAX_NIGHTS);
  const text = kept.map((each) => `${JSON.stringify(each)}\n`).join('');
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, secrets.mask(text));
  renameSync(temporary, path);
  return kept;
}

/**
 * What the reports show of the history after tonight's run: tonight appended when the run is one
 * to keep, then this target's nights. A file that cannot be read or written costs the strips, never
 * the reports: the problem is said on the page.
 */
export function recordNight(
  report: ConformanceReport,
  options: { reportsDir: string; interrupted: boolean; secrets: Secrets },
): TargetHistory {
  const path = historyPath(options.reportsDir);
  const tonight = nightOf(report);
  const keep = isKept(report, options.interrupted);
  try {
    const nights = keep ? appendNight(path, tonight, options.secrets) : readNights(path);
    return { path, nights: nightsOfTarget(nights, tonight.target), tonightKept: keep };
  } catch (error) {
    return { path, nights: [], tonightKept: false, problem: (error as Error).message };
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

/** The night before tonight in this target's history, if any. */
export function previousNight(history: TargetHistory, tonight: Night): Night | undefined {
  return history.nights.filter((night) => night.runId !== tonight.runId).at(-1);
}

export interface NightChange {
  id: string;
  before: ShownState | 'absent';
  now: ShownState;
}

/**
 * The rules whose state tonight differs from the night before: a suite defect counts as a state of
 * its own, as the page shows it. A rule a --rule run left out is not compared: it was not checked.
 */
export function changesSince(previous: Night, tonight: Night, compared: (id: string) => boolean): NightChange[] {
  return Object.keys(tonight.rules).flatMap((id) => {
    const now = stateOn(tonight, id) as ShownState;
    const before = stateOn(previous, id);
    return compared(id) && before !== now ? [{ id, before, now }] : [];
  });
}
