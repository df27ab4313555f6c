// The benchmark's figures, checked on its parts rather than by a whole run: what one run cost is read from a
// report made here, with a different count in every field it reads, and the runs become the row the table shows.
// It proves the bench produces every figure issue 13 asks for, computed from the run's report rather than
// guessed. The counts themselves are the report's (request-accounting.test.ts checks them against a proxy's
// log), the paging and the Retry-After windows the proxy's (unruly-proxy.test.ts). No time is asserted.
// The bench's own run of a shop (whole-runs.ts wholeRun: starting it behind the proxy, running it, reading it)
// is run by `npm run bench` alone: a break there shows there, not here.
import { expect, test } from 'vitest';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { measure, table } from './bench/measurements.ts';
import { figuresOf } from './bench/whole-runs.ts';

const LATENCY_MS = 5;
const LIMIT = { perSecond: 50, burst: 2 };

/** Only what the bench reads of a run's report, each count apart from the others so that no mix-up hides. */
function reportWith(verdict: string, total: number, throttled: number): ConformanceReport {
  const spent = (requests: number, cleanup: number) => ({ requests, cleanup, listPages: 1 });
  return {
    verdict,
    requests: {
      total,
      throttled,
      listPages: 9,
      longestTest: { title: 'CREATE-01 a created zone reads back', requests: 11, cleanup: 3 },
      aroundTests: { preflight: spent(4, 0), finalSweep: spent(2, 1) },
    },
  } as unknown as ConformanceReport;
}

test('a run yields wall time, requests, pages, 429s and both floors from its report and the proxy', () => {
  const run = figuresOf(
    { latencyMs: LATENCY_MS, rateLimit: LIMIT },
    { seconds: 3.2, report: reportWith('incomplete', 47, 6) },
    0,
  );
  // The chain: the preflight's 4, the longest test's 11 and its clean-up's 3, the final sweep's 2 and 1.
  expect(run).toEqual({
    seconds: 3.2,
    requests: 47,
    throttled: 6,
    verdict: 'incomplete',
    listPages: 9,
    violations: 0,
    criticalPathSeconds: ((4 + 11 + 3 + 2 + 1) * LATENCY_MS) / 1000,
    rateLimitSeconds: (47 - 6) / LIMIT.perSecond,
  });
  // With no rate limit there is no floor to compare with, nor windows to count; with no latency, no chain.
  const unlimited = figuresOf({}, { seconds: 1, report: reportWith('conformant', 30, 0) }, 2);
  expect(unlimited).toMatchObject({ violations: undefined, rateLimitSeconds: undefined, criticalPathSeconds: 0 });
});

test('runs yield the median, what was carried out, both ratios, and a table row with every figure', () => {
  const conditions = { latencyMs: LATENCY_MS, rateLimit: LIMIT };
  const runs = [
    figuresOf(conditions, { seconds: 3.2, report: reportWith('incomplete', 47, 6) }, 0),
    figuresOf(conditions, { seconds: 2.4, report: reportWith('incomplete', 50, 1) }, 0),
    figuresOf(conditions, { seconds: 2.9, report: reportWith('incomplete', 46, 5) }, 0),
  ];
  const m = measure({ name: 'tiny' }, runs);

  expect([m.runs, m.medianSeconds, m.requests]).toEqual([3, 2.9, 47]);
  expect(m.throttled).toEqual([6, 1, 5]);
  // A 429 is a request the shop did not carry out: the median of 41, 49 and 41, not 47 less 5.
  expect(m.carriedOut).toBe(41);
  expect(m.listPages).toBe(9);
  expect(m.violations).toBe(0);
  expect(m.criticalPathSeconds).toBe(((4 + 11 + 3 + 2 + 1) * LATENCY_MS) / 1000);
  expect(m.toCriticalPath).toBe(Math.round((m.medianSeconds / m.criticalPathSeconds!) * 100) / 100);
  expect(m.rateLimitSeconds).toBe(m.carriedOut / LIMIT.perSecond);
  expect(m.toRateLimit).toBe(Math.round((m.medianSeconds / m.rateLimitSeconds!) * 100) / 100);
  expect(m.verdict).toBe('incomplete');

  const [header, row] = table([m]);
  expect(header).toMatch(/median s .*requests .*pages .*429s .*crit\. path s .*x crit\. .*limit floor s .*x limit/);
  expect(row).toMatch(new RegExp(`^tiny\\s+3\\s+2\\.9\\s+${m.requests}\\s+${m.listPages}\\s+5\\s`));
  expect(row).not.toMatch(/undefined|NaN|\s-(\s|$)/);
});
