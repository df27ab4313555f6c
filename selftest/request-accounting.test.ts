// The report's request figures are what the shop saw, to the request: a run behind the unruly proxy
// (lists paged two zones at a time over zones the suite did not make, a limit with a burst of 2 that
// answers 429s, and list reads dropped without an answer) is counted by the proxy on its side and by the suite on its own, and the two
// must agree exactly, by endpoint, in list pages and in 429s. --rule keeps the run to a few seconds
// and still reaches all four endpoints.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { startReference } from '../reference/server.ts';
import { type ChildRun, runEntry } from './run-node.ts';
import { startUnrulyProxy, type UnrulyProxy } from './support/unruly-proxy.ts';

const API = '/admin/api/2026-07';
const PAGE_SIZE = 2;
const OTHERS_ZONES = 5;
const DROPPED = 2;

const closers: (() => Promise<void>)[] = [];
let proxy: UnrulyProxy;
let run: ChildRun;
let report: ConformanceReport;

beforeAll(async () => {
  const reference = await startReference();
  for (let i = 0; i < OTHERS_ZONES; i += 1) reference.backdoor.plant({ name: `another-team-${i}`, coverage: {} });
  proxy = await startUnrulyProxy({
    upstream: reference.url,
    pageSize: PAGE_SIZE,
    // Fast enough to finish in seconds, a burst small enough that the first requests meet 429s.
    rateLimit: { perSecond: 25, burst: 2 },
    dropGets: DROPPED,
  });
  closers.push(
    () => proxy.close(),
    () => reference.close(),
  );
  const dir = mkdtempSync(join(tmpdir(), 'zc-accounting-'));
  run = await runEntry('bin/conformance.ts', ['--rule', 'AUTH,PROFILE'], {
    ...settingsForStyle(reference.style, proxy.url, reference.token),
    // Straight to the reference: the operator's commands, not the suite's requests.
    ...bookingHooksForReference(reference.url),
    ZONES_REPORTS_DIR: dir,
  });
  // A run that wrote no certificate says why on its own output: that is what a failure here shows.
  expect(existsSync(join(dir, 'conformance.json')), `exit ${run.code}\n${run.stderr}\n${run.stdout}`).toBe(true);
  report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
});

afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The proxy's log by method and path template, ids replaced as the report replaces them. */
function proxyByEndpoint(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const entry of proxy.log) {
    const path = entry.url.split('?')[0]!.replace(/\/zones\/[^/]+\.json$/, '/zones/{zone_id}.json');
    const key = `${entry.method} ${path}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

const isListPage = (entry: UnrulyProxy['log'][number]) =>
  entry.method === 'GET' &&
  entry.url.split('?')[0] === `${API}/zones.json` &&
  typeof entry.status === 'number' &&
  entry.status >= 200 &&
  entry.status <= 299;

test('the run went as planned: a partial run that paged, met 429s and lost answers', () => {
  expect(run.code, run.stderr).toBe(2);
  expect(report.verdict).toBe('incomplete');
  expect(proxy.throttled, 'no 429 was answered: the test proves nothing about them').toBeGreaterThan(0);
  expect(proxy.pagedAnswers, 'no list ran past a page: the test proves nothing about pages').toBeGreaterThan(5);
});

test('requests by endpoint are the proxy log by endpoint, 429s included', () => {
  const seen = proxyByEndpoint();
  expect(Object.keys(seen).every((key) => key in report.requests.byEndpoint)).toBe(true);
  expect(Object.fromEntries(Object.entries(report.requests.byEndpoint).filter(([, count]) => count > 0))).toStrictEqual(
    seen,
  );
  // Every endpoint was used, so no key of the comparison is vacuous.
  expect(Object.values(report.requests.byEndpoint).every((count) => count > 0)).toBe(true);
  expect(report.requests.total).toBe(proxy.log.length);
});

test('list pages read are the list answers the proxy gave with a 2xx, one per page', () => {
  expect(report.requests.listPages).toBe(proxy.log.filter(isListPage).length);
});

test("429s are the proxy's, and each of them, like each list read dropped without an answer, was sent again", () => {
  expect(report.requests.throttled).toBe(proxy.throttled);
  expect(report.requests.resent.after429).toBe(proxy.throttled);
  expect(proxy.dropped).toBe(DROPPED);
  expect(report.requests.resent.afterNoAnswer).toBe(DROPPED);
});

test('the breakdown adds up to the totals: per rule, the preflight and the final sweep', () => {
  const { byRule, sharedRun, aroundTests } = report.requests;
  const parts = [...Object.values(byRule), ...(sharedRun ? [sharedRun] : [])];
  const sum = (pick: (spent: (typeof parts)[number]) => number) => parts.reduce((total, s) => total + pick(s), 0);
  expect(sum((s) => s.requests)).toBe(report.requests.tests);
  expect(sum((s) => s.cleanup) + aroundTests.finalSweep.cleanup).toBe(report.requests.cleanup);
  expect(aroundTests.preflight.requests).toBe(report.requests.preflight);
  expect(sum((s) => s.listPages) + aroundTests.preflight.listPages + aroundTests.finalSweep.listPages).toBe(
    report.requests.listPages,
  );
  // Only the rules asked for spent anything.
  expect(Object.keys(byRule).every((id) => /^(AUTH|PROFILE)-/.test(id))).toBe(true);
  expect(Object.keys(byRule).length).toBeGreaterThan(3);
});

test('the closing lines show the totals', () => {
  const { total, listPages, throttled } = report.requests;
  const resent = throttled + DROPPED;
  expect(run.stdout).toMatch(
    new RegExp(
      `^requests: ${total} \\(GET \\d+, POST \\d+, PUT \\d+, DELETE \\d+\\); ${listPages} list pages, ${throttled} answered 429, ${resent} sent again$`,
      'm',
    ),
  );
});
