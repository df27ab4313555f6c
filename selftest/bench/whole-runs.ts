// Whole certifications of the reference as a user runs them (`npm run conformance` in a child process),
// behind the unruly proxy that makes the reference look like a staging shop: latency, a rate limit,
// zones that are somebody else's, lists paged as the shop pages them. What each run cost comes from
// its conformance.json and the proxy's own counts; docs/performance.md explains the floors.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bookingHooksForReference, settingsForStyle } from '../../bin/reference-settings.ts';
import type { ConformanceReport } from '../../helpers/report/certificate.ts';
import { startReference } from '../../reference/server.ts';
import { runEntry } from '../run-node.ts';
import type { RateLimit, RateLimitHeaders } from '../support/token-bucket.ts';
import { startUnrulyProxy } from '../support/unruly-proxy.ts';
import type { Scenario, Timed } from './measurements.ts';

export interface ShopConditions {
  name: string;
  defaultRuns: number;
  /** Added by the proxy before it handles each request. */
  latencyMs?: number;
  rateLimit?: RateLimit;
  rateLimitHeaders?: RateLimitHeaders;
  /** Zones planted on the shop before the run, as another team's: the suite must read past them. */
  othersZones?: number;
  /** Lists come this many zones a page, linked by rel="next"; one answer when absent. */
  pageSize?: number;
  /** More settings for the run. */
  env?: Record<string, string>;
}

/** One `npm run conformance` in a child process; the wall time and what the report says. */
export async function timedConformance(
  env: Record<string, string>,
): Promise<{ seconds: number; report: ConformanceReport }> {
  const dir = mkdtempSync(join(tmpdir(), 'zc-bench-'));
  const started = performance.now();
  const run = await runEntry('bin/conformance.ts', [], { ...env, ZONES_REPORTS_DIR: dir }, 900_000);
  const seconds = (performance.now() - started) / 1000;
  // Every bench run certifies a correct shop in full: anything but conformant is no figure to report.
  if (run.code !== 0)
    throw new Error(`the benchmark run ended with exit ${run.code}, not 0:\n${run.stderr}\n${run.stdout.slice(-2000)}`);
  return { seconds, report: JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport };
}

/**
 * The shortest a run can take at this latency (docs/performance.md): the preflight, then the longest
 * test with its clean-up, then the final sweep, each request waiting out the latency once.
 */
export function criticalPathSeconds(report: ConformanceReport, latencyMs: number): number {
  const { aroundTests, longestTest } = report.requests;
  const chain =
    aroundTests.preflight.requests +
    (longestTest ? longestTest.requests + longestTest.cleanup : 0) +
    aroundTests.finalSweep.requests +
    aroundTests.finalSweep.cleanup;
  return (chain * latencyMs) / 1000;
}

/** The shortest a run can take behind the limit: the requests it carried out at the limit's rate. */
export function rateLimitSeconds(report: ConformanceReport, limit: RateLimit): number {
  return (report.requests.total - report.requests.throttled) / limit.perSecond;
}

/**
 * What a run under these conditions cost, from its report and the proxy's count of requests inside a Retry-After
 * window: apart from the run itself, so that a self-test can check each figure on a report it made.
 */
export function figuresOf(
  conditions: Pick<ShopConditions, 'latencyMs' | 'rateLimit'>,
  { seconds, report }: { seconds: number; report: ConformanceReport },
  violations: number,
): Timed {
  return {
    seconds,
    requests: report.requests.total,
    throttled: report.requests.throttled,
    verdict: report.verdict,
    listPages: report.requests.listPages,
    violations: conditions.rateLimit ? violations : undefined,
    criticalPathSeconds: criticalPathSeconds(report, conditions.latencyMs ?? 0),
    rateLimitSeconds: conditions.rateLimit ? rateLimitSeconds(report, conditions.rateLimit) : undefined,
  };
}

/** A whole certification under these conditions, on a fresh reference each time (a full bucket, no leftovers). */
export function wholeRun(conditions: ShopConditions): Scenario {
  return {
    name: conditions.name,
    defaultRuns: conditions.defaultRuns,
    async once(): Promise<Timed> {
      const reference = await startReference();
      for (let i = 0; i < (conditions.othersZones ?? 0); i += 1)
        reference.backdoor.plant({ name: `another-team-zone-${i}`, coverage: { countries: ['NL'] } });
      const proxy = await startUnrulyProxy({
        upstream: reference.url,
        latencyMs: conditions.latencyMs,
        rateLimit: conditions.rateLimit,
        rateLimitHeaders: conditions.rateLimitHeaders,
        pageSize: conditions.pageSize,
      });
      try {
        const env = {
          ...settingsForStyle(reference.style, proxy.url, reference.token),
          // The booking hooks go straight to the reference: they are the operator's commands, not the suite's requests.
          ...bookingHooksForReference(reference.url),
          ...conditions.env,
        };
        const timed = await timedConformance(env);
        return figuresOf(conditions, timed, proxy.violations);
      } finally {
        await proxy.close();
        await reference.close();
      }
    },
  };
}
