// `npm run bench`: what the suite costs, measured on this machine rather than guessed. By default,
// whole certifications of the reference behind the unruly proxy, lists 50 zones a page: an empty
// shop at 0, 50 and 200 ms latency, behind 2 requests per second (a bucket of 4, full or spent,
// with an exact or a whole-second Retry-After; Shopify's bucket of 40, full or spent), and a shop that
// already holds 1,000 zones of others, read at the shop's 50 a page and at ZONES_PAGE_SIZE=250. For
// each, the median wall time, requests, list pages, 429s, and the ratios to the critical path and to
// the rate limit's floor (docs/performance.md). Other figures stay reachable: `npm run conformance`
// on the embedded reference, toolchain start-up included (embedded), behind the limit paced with
// ZONES_MAX_RPS (paced) or told by RateLimit headers (headers), and the mutation gallery that
// `npm test` runs (gallery). Prints a table and writes reports/bench.json. Nothing here is asserted:
// it is a benchmark.
// Usage: npm run bench [-- --runs N] [--only latency-0,latency-50,latency-200,limited,limited-whole,limited-spent,
// shopify-spent,shopify-full,zones-1000,embedded,paced,headers,zones-1000-250,gallery]
// --runs repeats each certification (default 3 with no latency, 5 on the embedded reference, else 1:
// those take a minute or more); the gallery runs once. Repeated runs go in rounds (see below).
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { GalleryRun } from '../gallery/gallery.ts';
import { projectRoot, runEntry } from '../run-node.ts';
import { measure, notes, round, type Scenario, type Timed, table } from './measurements.ts';
import { timedConformance, wholeRun } from './whole-runs.ts';

/** Whole certifications of a staging shop: its latency, rate limit and size, 50 zones a page. */
const PAGE = 50;
const SHOP_LIMIT = { perSecond: 2, burst: 4 };
const staging: Record<string, Scenario> = {
  'latency-0': wholeRun({ name: 'empty shop, no added latency', defaultRuns: 3, pageSize: PAGE, latencyMs: 0 }),
  'latency-50': wholeRun({ name: 'empty shop, 50 ms latency', defaultRuns: 1, pageSize: PAGE, latencyMs: 50 }),
  'latency-200': wholeRun({ name: 'empty shop, 200 ms latency', defaultRuns: 1, pageSize: PAGE, latencyMs: 200 }),
  limited: wholeRun({
    name: 'empty shop, 2 requests/s (burst 4)',
    defaultRuns: 1,
    pageSize: PAGE,
    rateLimit: SHOP_LIMIT,
  }),
  // Issue 30's shops: the preflight spends a small bucket (or somebody did before the run), and most
  // servers round Retry-After up to whole seconds; Shopify's bucket is bigger and says "2.0".
  'limited-whole': wholeRun({
    name: 'bucket of 4 at 2/s, Retry-After: 1',
    defaultRuns: 1,
    pageSize: PAGE,
    rateLimit: { ...SHOP_LIMIT, retryAfter: 'whole' },
  }),
  'limited-spent': wholeRun({
    name: 'bucket of 4 at 2/s spent before the run, Retry-After: 1',
    defaultRuns: 1,
    pageSize: PAGE,
    rateLimit: { ...SHOP_LIMIT, startTokens: 0, retryAfter: 'whole' },
  }),
  'shopify-spent': wholeRun({
    name: 'bucket of 40 leaking 2/s spent before the run, Retry-After: 2.0',
    defaultRuns: 1,
    pageSize: PAGE,
    rateLimit: { perSecond: 2, burst: 40, startTokens: 0, retryAfter: 2 },
  }),
  'shopify-full': wholeRun({
    name: 'bucket of 40 leaking 2/s, Retry-After: 2.0',
    defaultRuns: 1,
    pageSize: PAGE,
    rateLimit: { perSecond: 2, burst: 40, retryAfter: 2 },
  }),
  'zones-1000': wholeRun({
    name: '1,000 zones of others, 50 a page',
    defaultRuns: 1,
    pageSize: PAGE,
    othersZones: 1000,
  }),
  // The same shop asked for 250 zones a page, as a Shopify-style shop takes it: the proxy honours limit.
  'zones-1000-250': wholeRun({
    name: '1,000 zones of others, ZONES_PAGE_SIZE=250',
    defaultRuns: 1,
    pageSize: PAGE,
    othersZones: 1000,
    env: { ZONES_PAGE_SIZE: '250' },
  }),
};

const embeddedReference: Scenario = {
  name: 'npm run conformance, embedded reference',
  defaultRuns: 5,
  async once() {
    const { seconds, report } = await timedConformance({});
    return { seconds, requests: report.requests.total, listPages: report.requests.listPages, verdict: report.verdict };
  },
};

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

const scenarios: Record<string, Scenario> = {
  ...staging,
  embedded: embeddedReference,
  paced: wholeRun({
    name: 'empty shop, 2 requests/s (burst 4), ZONES_MAX_RPS=2',
    defaultRuns: 1,
    rateLimit: SHOP_LIMIT,
    env: { ZONES_MAX_RPS: '2' },
  }),
  headers: wholeRun({
    name: 'empty shop, 2 requests/s (burst 4), announced in RateLimit headers',
    defaultRuns: 1,
    rateLimit: SHOP_LIMIT,
    rateLimitHeaders: 'ietf',
  }),
  gallery,
};

const USAGE = `Usage: npm run bench [-- [--only NAME,...] [--runs N]]
Scenarios: ${Object.keys(scenarios).join(', ')}; by default all but ${Object.keys(scenarios)
  .filter((name) => !Object.hasOwn(staging, name))
  .join(', ')}. Writes reports/bench.json; see docs/performance.md.`;
let values: { runs?: string; only?: string; help?: boolean };
try {
  ({ values } = parseArgs({
    options: { runs: { type: 'string' }, only: { type: 'string' }, help: { type: 'boolean' } },
    strict: true,
  }));
} catch (error) {
  console.error(`bench: ${(error as Error).message}\n${USAGE}`);
  process.exit(3);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const runs = values.runs === undefined ? undefined : Number(values.runs);
const chosen = values.only === undefined ? Object.keys(staging) : values.only.split(',').map((name) => name.trim());
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
    // Some runs take minutes: each says when it is done.
    console.log(
      `  ${name} run ${pass + 1}: ${round(run.seconds)} s, ${run.requests} requests${run.throttled === undefined ? '' : `, ${run.throttled} answered 429`}`,
    );
  }
}
const measurements = chosen.map((name) => measure(scenarios[name]!, timed.get(name)!));
for (const row of table(measurements)) console.log(`  ${row}`);
for (const note of measurements.map(notes)) if (note !== undefined) console.log(`  ${note}`);
// What 1,000 zones of others cost over what an empty shop does, at each page size.
const empty = measurements[chosen.indexOf('latency-0')];
const sizeCost = Object.fromEntries(
  ['zones-1000', 'zones-1000-250'].flatMap((name) => {
    const full = measurements[chosen.indexOf(name)];
    if (!empty || !full) return [];
    const ratio = round(full.requests / empty.requests, 2);
    console.log(`  ${full.name}: ${full.requests} requests, ${ratio}x the empty shop's ${empty.requests}`);
    return [[name, { emptyShop: empty.requests, requests: full.requests, ratio }]];
  }),
);
const reportsDir = join(projectRoot, 'reports');
mkdirSync(reportsDir, { recursive: true });
writeFileSync(
  join(reportsDir, 'bench.json'),
  `${JSON.stringify({ at: new Date().toISOString(), machine, measurements, sizeCost }, null, 2)}\n`,
);
console.log('bench: written to reports/bench.json');
