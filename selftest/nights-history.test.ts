// The nights history (helpers/report/history.ts) from the file alone, without a run: what it keeps,
// what it skips, which nights belong to a target and in what order, and what a file that cannot be
// written still shows.
import fs, { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { buildReport, type RunFacts } from '../helpers/report/conformance-report.ts';
import {
  changesSince,
  HISTORY_FILE,
  HISTORY_MAX_NIGHTS,
  type Night,
  nightOf,
  nightsShown,
  readHistory,
  recordNight,
  writeNights,
} from '../helpers/report/history.ts';
import { rules } from '../helpers/rules.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';

const TOKEN = 'shpat_selftest_history_0123456789abcdef';
const secrets = new Secrets({ token: TOKEN });
const SHOP = { baseUrl: 'https://shop.example/admin', embedded: false, apiVersion: '2026-07' };

function night(
  runId: string,
  target: Night['target'] = SHOP,
  rulesOf: Night['rules'] = { 'AUTH-01': 'passed' },
  startedAt = '2026-11-01T00:00:00.000Z',
): Night {
  return {
    runId,
    startedAt,
    verdict: 'conformant',
    target,
    rules: rulesOf,
    suiteDefects: [],
  };
}

const readNights = (path: string) => readHistory(path).nights;

/** Adds a night to the file, which keeps its last HISTORY_MAX_NIGHTS lines; lines that did not parse are dropped then. */
function appendNight(path: string, each: Night, masker: Secrets): void {
  writeNights(path, [...readNights(path), each], masker);
}

function freshFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'zc-history-')), HISTORY_FILE);
}

/** A whole run's report against `baseUrl` on 22 November, every rule passed but those given. */
function reportOf(
  baseUrl: string,
  states: Record<string, 'failed' | 'suite-error'> = {},
  more: Partial<RunFacts> = {},
): ConformanceReport {
  const config = readTargetConfig({ ZONES_BASE_URL: baseUrl, ZONES_ACCESS_TOKEN: TOKEN });
  const outcomes = rules.map((rule) =>
    sampleOutcome(`${rule.id} ${rule.title}`, states[rule.id] ?? 'passed', { reason: states[rule.id] && 'because' }),
  );
  return buildReport({
    ...sampleRunFacts(config, outcomes),
    startedAt: new Date('2026-11-22T00:00:00.000Z'),
    ...more,
  });
}

/** The shop went away partway: the run could not complete. */
const OUTAGE = { since: '2026-11-22T00:00:05.000Z', what: 'connection refused', budgetMs: 60_000 };

/**
 * Runs `check` while every rename on this machine fails as a read-only file system fails it: a history
 * file that cannot be replaced. node:fs's named exports follow its object once synced (node:module).
 */
function withRenameFailing<T>(check: () => T): T {
  const rename = fs.renameSync;
  fs.renameSync = () => {
    throw Object.assign(new Error('EROFS: read-only file system, rename'), { code: 'EROFS' });
  };
  syncBuiltinESMExports();
  try {
    return check();
  } finally {
    fs.renameSync = rename;
    syncBuiltinESMExports();
  }
}

describe('the history file', () => {
  test(`keeps the last ${HISTORY_MAX_NIGHTS} nights, dropping the oldest`, () => {
    const path = freshFile();
    for (let n = 1; n <= HISTORY_MAX_NIGHTS + 5; n++) appendNight(path, night(`run-${n}`), secrets);
    const lines = readFileSync(path, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(HISTORY_MAX_NIGHTS);
    expect(readNights(path).map((each) => each.runId)).toEqual(
      Array.from({ length: HISTORY_MAX_NIGHTS }, (_, i) => `run-${i + 6}`),
    );
  });

  test('skips a line that does not parse or is not a night, and never throws on it', () => {
    const path = freshFile();
    writeFileSync(
      path,
      [
        JSON.stringify(night('good-1')),
        '{"runId":"torn',
        'not json at all',
        JSON.stringify({ runId: 'no-target', rules: {} }),
        JSON.stringify({ ...night('bad-status'), rules: { 'AUTH-01': 'green' } }),
        'null',
        JSON.stringify(night('good-2')),
        '',
      ].join('\n'),
    );
    expect(readNights(path).map((each) => each.runId)).toEqual(['good-1', 'good-2']);
    // A night whose start is no time cannot be placed among the others.
    expect(readHistory(path).unreadable).toBe(5);
    writeFileSync(path, `${JSON.stringify({ ...night('when'), startedAt: 'last tuesday' })}\n`, { flag: 'a' });
    expect(readHistory(path)).toMatchObject({ unreadable: 6, nights: [{ runId: 'good-1' }, { runId: 'good-2' }] });
    appendNight(path, night('good-3'), secrets);
    expect(readNights(path).map((each) => each.runId)).toEqual(['good-1', 'good-2', 'good-3']);
  });

  test('never holds the token, even where a base URL carried it', () => {
    const path = freshFile();
    appendNight(path, night('leaky', { ...SHOP, baseUrl: `https://shop.example/${TOKEN}` }), secrets);
    expect(readFileSync(path, 'utf8')).not.toContain(TOKEN);
  });
});

describe('a run in the history', () => {
  test('is read back with the nights of its own target only: same origin and path, same API version, the embedded reference on any port', () => {
    const reportsDir = mkdtempSync(join(tmpdir(), 'zc-history-'));
    const path = join(reportsDir, HISTORY_FILE);
    appendNight(path, night('same-shop', { ...SHOP, baseUrl: 'https://SHOP.example/admin/' }), secrets);
    appendNight(path, night('other-shop', { ...SHOP, baseUrl: 'https://other.example/admin' }), secrets);
    appendNight(path, night('other-path', { ...SHOP, baseUrl: 'https://shop.example/v2' }), secrets);
    appendNight(path, night('other-version', { ...SHOP, apiVersion: '2026-10' }), secrets);
    appendNight(
      path,
      night('embedded', { baseUrl: 'http://127.0.0.1:4000', embedded: true, apiVersion: '2026-07' }),
      secrets,
    );
    const history = recordNight(reportOf('https://shop.example/admin'), { reportsDir, secrets });
    expect(history.tonightKept).toBe(true);
    expect(history.nights.map((each) => each.runId)).toEqual(['same-shop', '20261122t000000-abcd']);
    expect(history.path).toBe(path);
  });

  test('is not appended when it was partial (--rule), stopped by a signal, or could not complete', () => {
    const reportsDir = mkdtempSync(join(tmpdir(), 'zc-history-'));
    const partial = reportOf('https://shop.example');
    partial.selection = { rule: 'AUTH', rules: ['AUTH-01'] };
    expect(recordNight(partial, { reportsDir, secrets }).tonightKept).toBe(false);
    const stopped = reportOf('https://shop.example');
    stopped.stopped = { signal: 'SIGTERM', exitCode: 143 };
    expect(recordNight(stopped, { reportsDir, secrets }).tonightKept).toBe(false);
    // The shop went away partway: no verdict on the shop was given, and the rules it did not reach
    // would read as changed beside the next night.
    const shopGone = reportOf('https://shop.example', {}, { outage: OUTAGE });
    expect(shopGone.verdict).toBe('could-not-complete');
    expect(recordNight(shopGone, { reportsDir, secrets }).tonightKept).toBe(false);
    expect(readNights(join(reportsDir, HISTORY_FILE))).toEqual([]);
  });

  test('leaves out a could-not-complete night an earlier version kept: the night before is the last judged one', () => {
    const reportsDir = mkdtempSync(join(tmpdir(), 'zc-history-'));
    const path = join(reportsDir, HISTORY_FILE);
    appendNight(path, night('judged', SHOP, undefined, '2026-11-20T00:00:00.000Z'), secrets);
    appendNight(
      path,
      { ...night('shop-gone', SHOP, undefined, '2026-11-21T00:00:00.000Z'), verdict: 'could-not-complete' },
      secrets,
    );
    const history = recordNight(reportOf('https://shop.example/admin'), { reportsDir, secrets });
    expect(history.nights.map((each) => each.runId)).toEqual(['judged', '20261122t000000-abcd']);
  });

  test('shows the nights in the order they started, tonight last, and counts the lines it skipped', () => {
    const reportsDir = mkdtempSync(join(tmpdir(), 'zc-history-'));
    const path = join(reportsDir, HISTORY_FILE);
    // As a file merged from two caches may hold them: out of order, with a torn line between.
    writeFileSync(
      path,
      [
        JSON.stringify(night('third', SHOP, undefined, '2026-11-21T00:00:00.000Z')),
        JSON.stringify(night('first', SHOP, undefined, '2026-11-19T00:00:00.000Z')),
        '{"runId":"torn',
        JSON.stringify(night('second', SHOP, undefined, '2026-11-20T00:00:00.000Z')),
        'not json',
        '',
      ].join('\n'),
    );
    const tonight = reportOf('https://shop.example/admin');
    const history = recordNight(tonight, { reportsDir, secrets });
    expect(history.nights.map((each) => each.runId)).toEqual(['first', 'second', 'third', tonight.runId]);
    expect(history.unreadable).toBe(2);
    expect(history.problem).toBeUndefined();
  });

  test('that cannot be written still shows the earlier nights, and leaves no temporary file behind', () => {
    const reportsDir = mkdtempSync(join(tmpdir(), 'zc-history-'));
    const path = join(reportsDir, HISTORY_FILE);
    appendNight(path, night('earlier-1', SHOP, undefined, '2026-11-20T00:00:00.000Z'), secrets);
    appendNight(path, night('earlier-2', SHOP, undefined, '2026-11-21T00:00:00.000Z'), secrets);
    const before = readFileSync(path, 'utf8');
    const history = withRenameFailing(() =>
      recordNight(reportOf('https://shop.example/admin'), { reportsDir, secrets }),
    );
    expect(history).toMatchObject({
      tonightKept: false,
      problem: { during: 'writing', message: 'EROFS: read-only file system, rename' },
    });
    expect(history.nights.map((each) => each.runId)).toEqual(['earlier-1', 'earlier-2']);
    expect(readFileSync(path, 'utf8')).toBe(before);
    expect(readdirSync(reportsDir)).toEqual([HISTORY_FILE]);
  });

  test('that cannot be read is not written over: tonight alone would replace the nights in it', () => {
    const reportsDir = mkdtempSync(join(tmpdir(), 'zc-history-'));
    // A folder where the file should be: reading it fails as an unreadable file would.
    mkdirSync(join(reportsDir, HISTORY_FILE));
    const history = recordNight(reportOf('https://shop.example'), { reportsDir, secrets });
    expect(history).toMatchObject({ nights: [], tonightKept: false, problem: { during: 'reading' } });
    expect(readdirSync(join(reportsDir, HISTORY_FILE))).toEqual([]);
  });

  test('records each rule as conformance.json has it, and which were suite defects', () => {
    const tonight = nightOf(reportOf('https://shop.example', { 'UPDATE-01': 'failed', 'LIST-02': 'suite-error' }));
    expect(tonight.rules).toMatchObject({ 'UPDATE-01': 'failed', 'LIST-02': 'not-verified', 'AUTH-01': 'passed' });
    expect(Object.keys(tonight.rules)).toEqual(rules.map((rule) => rule.id));
    expect(tonight.suiteDefects).toEqual(['LIST-02']);
  });
});

describe('the nights shown', () => {
  test('end with tonight, kept or not, and say what changed since the night before', () => {
    const before = night('before', SHOP, { 'AUTH-01': 'passed', 'LIST-02': 'passed', 'UPDATE-01': 'passed' });
    const tonight = {
      ...night('tonight', SHOP, { 'AUTH-01': 'passed', 'LIST-02': 'not-verified', 'UPDATE-01': 'failed' }),
      suiteDefects: ['LIST-02'],
    };
    const history = { path: 'reports/x', nights: [night('oldest'), before], tonightKept: false };
    const strip = (max: number) => nightsShown(history, tonight, () => true, max).strip.map((each) => each.runId);
    expect(strip(30)).toEqual(['oldest', 'before', 'tonight']);
    expect(strip(2)).toEqual(['before', 'tonight']);
    expect(changesSince(before, tonight, () => true)).toEqual([
      { id: 'AUTH-01', before: 'passed', now: 'passed', change: 'unchanged' },
      { id: 'LIST-02', before: 'passed', now: 'suite-defect', change: 'newly-not-verified' },
      { id: 'UPDATE-01', before: 'passed', now: 'failed', change: 'new-failure' },
    ]);
    expect(nightsShown(history, tonight, (id) => id !== 'UPDATE-01', 30)).toEqual({
      strip: [night('oldest'), before, tonight],
      before,
      changed: [{ id: 'LIST-02', before: 'passed', now: 'suite-defect', change: 'newly-not-verified' }],
    });
    // The night --baseline named, when there is one, is the night before.
    const baseline = night('baseline', SHOP, { 'AUTH-01': 'failed', 'LIST-02': 'passed', 'UPDATE-01': 'failed' });
    expect(nightsShown({ ...history, baseline }, tonight, () => true, 30).changed.map((rule) => rule.id)).toEqual([
      'AUTH-01',
      'LIST-02',
    ]);
    expect(nightsShown({ path: 'reports/x', nights: [], tonightKept: false }, tonight, () => true, 30)).toEqual({
      strip: [tonight],
      changed: [],
    });
  });

  test('a suite defect then and not verified now is a change of state shown, but none in the tables', () => {
    const before = { ...night('before', SHOP, { 'LIST-02': 'not-verified' }), suiteDefects: ['LIST-02'] };
    const tonight = night('tonight', SHOP, { 'LIST-02': 'not-verified', 'AUTH-01': 'passed' });
    expect(changesSince(before, tonight, () => true)).toEqual([
      { id: 'LIST-02', before: 'suite-defect', now: 'not-verified', change: 'unchanged' },
      { id: 'AUTH-01', before: 'absent', now: 'passed', change: 'unchanged' },
    ]);
  });
});
