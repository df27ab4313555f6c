// The benchmark's code path on a scenario small enough for a self-test: one partial certification
// behind the unruly proxy with every kind of trouble the bench scenarios use, at a latency and a
// rate limit of its own. It proves the bench produces every figure issue 13 asks for, computed from
// the run's report rather than guessed. No time is asserted: times are what the bench reports.
import { expect, test } from 'vitest';
import { measure, table } from './bench/measurements.ts';
import { wholeRun } from './bench/whole-runs.ts';

const LATENCY_MS = 5;
const LIMIT = { perSecond: 50, burst: 2 };

test('a whole run yields wall time, requests, pages, 429s and both ratios', async () => {
  const scenario = wholeRun({
    name: 'tiny',
    defaultRuns: 1,
    latencyMs: LATENCY_MS,
    rateLimit: LIMIT,
    othersZones: 3,
    pageSize: 2,
    args: ['--rule', 'AUTH-05'],
  });
  const run = await scenario.once();
  const m = measure(scenario, [run]);

  expect(m.requests).toBeGreaterThan(4);
  expect(m.carriedOut).toBe(m.requests - m.throttled![0]!);
  // Three zones of others at two a page: every list read is at least two pages.
  expect(m.listPages).toBeGreaterThanOrEqual(4);
  expect(m.violations).toBe(0);
  // The chain is the preflight's 4 requests at least, and never more than the whole run.
  expect(m.criticalPathSeconds).toBeGreaterThanOrEqual((4 * LATENCY_MS) / 1000);
  expect(m.criticalPathSeconds).toBeLessThanOrEqual((m.requests * LATENCY_MS) / 1000);
  expect(m.toCriticalPath).toBe(Math.round((m.medianSeconds / m.criticalPathSeconds!) * 100) / 100);
  expect(m.rateLimitSeconds).toBe(m.carriedOut / LIMIT.perSecond);
  expect(m.toRateLimit).toBe(Math.round((m.medianSeconds / m.rateLimitSeconds!) * 100) / 100);
  expect(m.verdict).toBe('incomplete');

  const [header, row] = table([m]);
  expect(header).toMatch(/median s .*requests .*pages .*429s .*crit\. path s .*x crit\. .*limit floor s .*x limit/);
  expect(row).toMatch(new RegExp(`^tiny\\s+1\\s+[\\d.]+\\s+${m.requests}\\s+${m.listPages}\\s+${m.throttled![0]}\\s`));
  expect(row).not.toMatch(/undefined|NaN|\s-(\s|$)/);
});
