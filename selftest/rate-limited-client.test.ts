// The client behind the unruly proxy's limit of 2 requests per second (burst 4), without
// ZONES_MAX_RPS: it learns the pace from its first 429s, or from the rate-limit headers when the shop
// sends them, and never sends inside an announced Retry-After window. Thirty list reads each, side by
// side, prove in seconds at a shop's usual rate what the full run behind a faster limit
// (unruly-target.test.ts) proves for the whole suite.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { configForReference } from '../bin/reference-settings.ts';
import { ZonesClient } from '../helpers/client/zones-client.ts';
import { readTargetConfig } from '../helpers/config.ts';
import type { Exchange } from '../helpers/evidence/exchange.ts';
import { Ledger } from '../helpers/ownership/ledger.ts';
import { startReference } from '../reference/server.ts';
import { type RateLimitHeaders, startUnrulyProxy, type UnrulyProxy } from './support/unruly-proxy.ts';

const READS = 30;
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.splice(0)) await close();
});

interface LimitedRun {
  proxy: UnrulyProxy;
  sent: Exchange[];
}

async function readBehindLimit(headers?: RateLimitHeaders): Promise<LimitedRun> {
  const reference = await startReference();
  const proxy = await startUnrulyProxy({
    upstream: reference.url,
    rateLimit: { perSecond: 2, burst: 4 },
    rateLimitHeaders: headers,
  });
  closers.push(
    () => proxy.close(),
    () => reference.close(),
  );
  // maxRps 0: no ZONES_MAX_RPS; a proxy of its own, so a throttle of its own.
  const config = { ...configForReference(readTargetConfig({}), reference), baseUrl: proxy.url, maxRps: 0 };
  const sent: Exchange[] = [];
  const ledger = new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-limited-')), 'run.jsonl'));
  const client = new ZonesClient(config, { ledger, onExchange: (exchange) => sent.push(exchange) });
  for (let i = 0; i < READS; i += 1) expect((await client.listZones()).status).toBe(200);
  return { proxy, sent };
}

let plain: LimitedRun;
let ietf: LimitedRun;
let combined: LimitedRun;
let shopify: LimitedRun;

beforeAll(async () => {
  // Side by side: each waits on its own proxy's limit, not on the machine.
  [plain, ietf, combined, shopify] = await Promise.all([
    readBehindLimit(),
    readBehindLimit('ietf'),
    readBehindLimit('ietf-combined'),
    readBehindLimit('shopify'),
  ]);
});

const announcedNoneLeft = (run: LimitedRun) =>
  run.sent.filter(
    (e) => e.responseHeaders['ratelimit-remaining'] === '0' || /remaining=0\b/.test(e.responseHeaders.ratelimit ?? ''),
  ).length;

describe(`${READS} list reads behind 2 requests per second, burst 4`, () => {
  test('without rate-limit headers: the first 429s teach the pace, at most 5 in all', () => {
    expect(plain.proxy.throttled, 'the limit was never reached: the test proves nothing').toBeGreaterThan(0);
    expect(plain.proxy.throttled).toBeLessThanOrEqual(5);
    expect(plain.sent.filter((e) => e.status === 429)).toHaveLength(plain.proxy.throttled);
    expect(plain.proxy.violations).toBe(0);
  });

  test.for([
    ['RateLimit-Remaining and RateLimit-Reset', () => ietf],
    ['RateLimit: limit=, remaining=, reset=', () => combined],
  ] as const)('announced in %s: no 429 at all', ([, run]) => {
    // "None left" was announced many times, and each time the client waited for the reset.
    expect(announcedNoneLeft(run()), 'the quota never ran out: the test proves nothing').toBeGreaterThan(5);
    expect(run().proxy.throttled).toBe(0);
  });

  test('announced in X-Shopify-Shop-Api-Call-Limit: a bucket filled in milliseconds costs at most three 429s', () => {
    const full = shopify.sent.filter((e) => e.responseHeaders['x-shopify-shop-api-call-limit'] === '4/4').length;
    expect(full, 'the bucket was never full: the test proves nothing').toBeGreaterThan(5);
    // Two teach the pace (throttle-learning.test.ts counts them in virtual time). The cycle the second
    // one closes holds a single request, and the time an answer takes on a loaded machine can make
    // it read up to a fifth fast: then one more 429, whose cycle is long enough to be right.
    expect(shopify.proxy.throttled).toBeLessThanOrEqual(3);
    expect(shopify.proxy.violations).toBe(0);
  });
});
