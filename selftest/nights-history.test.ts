// The nights history (helpers/report/history.ts) from the file alone, without a run: what it keeps,
// what it skips, and which nights belong to a target.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import { buildReport, type ConformanceReport } from '../helpers/report/conformance-report.ts';
import {
  appendNight,
  changesSince,
  HISTORY_FILE,
  HISTORY_MAX_NIGHTS,
  type Night,
  nightOf,
  readNights,
  recordNight,
  stripNights,
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
): Night {
  return {
    runId,
    startedAt: '2026-11-01T00:00:00.000Z',
    verdict: 'conformant',
    target,
    rules: rulesOf,
    suiteDefects: [],
  };
}

function freshFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'zc-history-')), HISTORY_FILE);
}

/** A whole run's report against `baseUrl`, every rule passed but those given. */
function reportOf(baseUrl: string, states: Record<string, 'failed' | 'suite-error'> = {}): ConformanceReport {
  const config = readTargetConfig({ ZONES_BASE_URL: baseUrl, ZONES_ACCESS_TOKEN: TOKEN });
  const outcomes = rules.map((rule) =>
    sampleOutcome(`${rule.id} ${rule.title}`, states[rule.id] ?? 'passed', { reason: states[rule.id] && 'because' }),
  );
  return buildReport(sampleRunFacts(config, outcomes));
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
    const history = recordNight(reportOf('https://shop.example/admin'), { reportsDir, interrupted: false, secrets });
    expect(history.tonightKept).toBe(true);
    expect(history.nights.map((each) => each.runId)).toEqual(['same-shop', '20261122t000000-abcd']);
    expect(history.path).toBe(path);
  });

  test('is not appended when it was partial (--rule) or stopped by a signal', () => {
    const reportsDir = mkdtempSync(join(tmpdir(), 'zc-history-'));
    const partial = reportOf('https://shop.example');
    partial.selection = { rule: 'AUTH', rules: ['AUTH-01'] };
    expect(recordNight(partial, { reportsDir, interrupted: false, secrets }).tonightKept).toBe(false);
    expect(recordNight(reportOf('https://shop.example'), { reportsDir, interrupted: true, secrets }).tonightKept).toBe(
      false,
    );
    expect(readNights(join(reportsDir, HISTORY_FILE))).toEqual([]);
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
    expect(stripNights(history, tonight, 30).map((each) => each.runId)).toEqual(['oldest', 'before', 'tonight']);
    expect(stripNights(history, tonight, 2).map((each) => each.runId)).toEqual(['before', 'tonight']);
    expect(changesSince(before, tonight, () => true)).toEqual([
      { id: 'LIST-02', before: 'passed', now: 'suite-defect' },
      { id: 'UPDATE-01', before: 'passed', now: 'failed' },
    ]);
    expect(changesSince(before, tonight, (id) => id !== 'UPDATE-01')).toEqual([
      { id: 'LIST-02', before: 'passed', now: 'suite-defect' },
    ]);
  });
});
