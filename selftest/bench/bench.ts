// `npm run bench`: how long the suite takes, measured on this machine rather than guessed. Five
// figures: a certification of the embedded reference as a user starts it (`npm run conformance`,
// toolchain start-up included), the same behind a shop-like limit of 2 requests per second (burst 4),
// unpaced, paced with ZONES_MAX_RPS, and with the limit announced in RateLimit headers, and the
// mutation gallery that `npm test` runs. Prints the figures and writes reports/bench.json.
// Usage: npm run bench [-- --runs N] [--only embedded,limited,paced,headers,gallery]
// --runs repeats each certification (default 5 on the embedded reference, 1 behind the limit, where
// one run takes over a minute); the gallery runs once. Repeated runs go in rounds (see below).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bookingHooksForReference, settingsForStyle } from '../../bin/reference-settings.ts';
import type { ConformanceReport } from '../../helpers/report/conformance-report.ts';
import { startReference } from '../../reference/server.ts';
import type { GalleryRun } from '../gallery/gallery.ts';
import { projectRoot, runEntry } from '../run-node.ts';
import { type RateLimitHeaders, startUnrulyProxy } from '../support/unruly-proxy.ts';

/** One timed run of a scenario. */
interface Timed {
  seconds: number;
  /** Every request sent, 429s included. */
  requests: number;
  throttled?: number;
  targets?: number;
  verdict?: string;
}

interface Scenario {
  name: string;
  defaultRuns: number;
  once(): Promise<Timed>;
}

interface Measurement {
  name: string;
  runs: number;
  /** Wall-clock seconds of each run, in the order they ran. */
  seconds: number[];
  /** Requests the target carried out (429s not counted), the median over the runs. */
  carriedOut: number;
  /** 429s of each run, in the order they ran. */
  throttled?: number[];
  targets?: number;
  verdict?: string;
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const round = (value: number, places = 1) => Math.round(value * 10 ** places) / 10 ** places;

/** One `npm run conformance` in a child process; the wall time and what the report says. */
async function timedConformance(env: Record<string, string>): Promise<{ seconds: number; report: ConformanceReport }> {
  const dir = mkdtempSync(join(tmpdir(), 'zc-bench-'));
  const started = performance.now();
  const run = await runEntry('bin/conformance.ts', [], { ...env, ZONES_REPORTS_DIR: dir }, 600_000);
  const seconds = (performance.now() - started) / 1000;
  if (run.code !== 0)
    throw new Error(
      `the benchmark run was not conformant (exit ${run.code}):\n${run.stderr}\n${run.stdout.slice(-2000)}`,
    );
  return { seconds, report: JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport };
}

const embeddedReference: Scenario = {
  name: 'npm run conformance, embedded reference',
  defaultRuns: 5,
  async once() {
    const { seconds, report } = await timedConformance({});
    return { seconds, requests: report.requests.total, verdict: report.verdict };
  },
};

/** Behind a shop-like limit of 2 requests per second (burst 4), optionally paced by ZONES_MAX_RPS or announced in headers. */
function rateLimited(options: { maxRps?: number; headers?: RateLimitHeaders } = {}): Scenario {
  const how =
    options.maxRps !== undefined
      ? `, ZONES_MAX_RPS=${options.maxRps}`
      : options.headers
        ? `, announced in ${options.headers} headers`
        : '';
  return {
    name: `npm run conformance, behind 2 requests/s (burst 4)${how}`,
    // Over a minute each.
    defaultRuns: 1,
    async once() {
      // A fresh shop each time, so every run starts with a full bucket.
      const reference = await startReference();
      const proxy = await startUnrulyProxy({
        upstream: reference.url,
        rateLimit: { perSecond: 2, burst: 4 },
        rateLimitHeaders: options.headers,
      });
      try {
        const env = {
          ...settingsForStyle(reference.style, proxy.url, reference.token),
          // The booking hooks go straight to the reference: they are the operator's commands, not the suite's requests.
          ...bookingHooksForReference(reference.url),
          ...(options.maxRps === undefined ? {} : { ZONES_MAX_RPS: String(options.maxRps) }),
        };
        const { seconds, report } = await timedConformance(env);
        return {
          seconds,
          requests: report.requests.total,
          throttled: report.requests.throttled,
          verdict: report.verdict,
        };
      } finally {
        await proxy.close();
        await reference.close();
      }
    },
  };
}

const gallery: Scenario = {
  name: 'mutation gallery (all targets, one vitest run)',
  defaultRuns: 1,
  async once() {
    const out = join(mkdtempSync(join(tmpdir(), 'zc-bench-gallery-')), 'gallery.json');
    const started = performance.now();
    const run = await runEntry('selftest/gallery/run-gallery.ts', [out], {}, 600_000);
    const seconds = (performance.now() - started) / 1000;
    if (run.code !== 0) throw new Error(`the gallery failed (exit ${run.code}):\n${run.stderr}`);
    const results = (JSON.parse(readFileSync(out, 'utf8')) as GalleryRun).results;
    return { seconds, requests: results.reduce((sum, r) => sum + r.requests, 0), targets: results.length };
  },
};

function measure(scenario: Scenario, timed: Timed[]): Measurement {
  const last = timed[timed.length - 1]!;
  return {
    name: scenario.name,
    runs: timed.length,
    seconds: timed.map((t) => t.seconds),
    // A 429 is a request the target did not carry out.
    carriedOut: median(timed.map((t) => t.requests - (t.throttled ?? 0))),
    throttled: last.throttled === undefined ? undefined : timed.map((t) => t.throttled ?? 0),
    targets: last.targets,
    verdict: last.verdict,
  };
}

function line(m: Measurement): string {
  const mid = median(m.seconds);
  const spread = m.runs > 1 ? ` (min ${round(Math.min(...m.seconds))}, max ${round(Math.max(...m.seconds))})` : '';
  const extra = [
    m.targets !== undefined ? `${m.targets} targets` : undefined,
    `${m.carriedOut} requests carried out, ${round(m.carriedOut / mid)} requests/s`,
    m.throttled !== undefined
      ? `${median(m.throttled)} more answered 429 and were sent again${m.runs > 1 ? ` (median; each run: ${m.throttled.join(', ')})` : ''}`
      : undefined,
    m.verdict,
  ]
    .filter(Boolean)
    .join(', ');
  return `${m.name}: ${m.runs > 1 ? `median of ${m.runs} runs ` : ''}${round(mid)} s${spread}; ${extra}`;
}

const scenarios: Record<string, Scenario> = {
  embedded: embeddedReference,
  limited: rateLimited(),
  paced: rateLimited({ maxRps: 2 }),
  headers: rateLimited({ headers: 'ietf' }),
  gallery,
};

const { values } = parseArgs({ options: { runs: { type: 'string' }, only: { type: 'string' } }, strict: true });
const runs = values.runs === undefined ? undefined : Number(values.runs);
const chosen = values.only === undefined ? Object.keys(scenarios) : values.only.split(',').map((name) => name.trim());
const unknown = chosen.filter((name) => !Object.hasOwn(scenarios, name));
if ((runs !== undefined && (!Number.isInteger(runs) || runs < 1)) || unknown.length > 0) {
  console.error(
    `bench: --runs must be a whole number from 1, and --only a list of ${Object.keys(scenarios).join(', ')} (got --runs "${values.runs ?? ''}", --only "${values.only ?? ''}")`,
  );
  process.exit(3);
}

const runsOf = (name: string) => (name === 'gallery' ? 1 : (runs ?? scenarios[name]!.defaultRuns));
const machine = {
  cores: cpus().length,
  cpu: cpus()[0]?.model ?? 'unknown',
  node: process.version,
  platform: process.platform,
};
console.log(`bench: ${machine.cores} cores (${machine.cpu}), Node ${machine.node}`);
const timed = new Map<string, Timed[]>(chosen.map((name) => [name, []]));
// One after another: run side by side, they would measure each other. In rounds, one run of each
// scenario per round, so that a slow spell on a shared machine falls on all of them alike.
const rounds = Math.max(...chosen.map(runsOf));
for (let pass = 0; pass < rounds; pass++) {
  for (const name of chosen.filter((n) => pass < runsOf(n))) {
    const run = await scenarios[name]!.once();
    timed.get(name)!.push(run);
    if (runsOf(name) > 1)
      console.log(
        `  ${name} run ${pass + 1}: ${round(run.seconds)} s${run.throttled === undefined ? '' : `, ${run.throttled} answered 429`}`,
      );
  }
}
const measurements = chosen.map((name) => measure(scenarios[name]!, timed.get(name)!));
for (const m of measurements) console.log(`  ${line(m)}`);
const reportsDir = join(projectRoot, 'reports');
mkdirSync(reportsDir, { recursive: true });
writeFileSync(
  join(reportsDir, 'bench.json'),
  `${JSON.stringify({ at: new Date().toISOString(), machine, measurements }, null, 2)}\n`,
);
console.log('bench: written to reports/bench.json');
