// How the client treats a target in trouble: a 429 is waited out and sent again, a GET that got no
// answer or a gateway's 502/503/504 is retried within the outage budget, a gateway's answer never
// reaches a check, and a create whose outcome is unknown is never sent twice but looked up by its
// name and put into the ledger.
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, onTestFinished, test, vi } from 'vitest';
import { configForReference } from '../bin/reference-settings.ts';
import { ShopUnavailableError, TransportError } from '../helpers/client/shop-transport.ts';
import { ZonesClient } from '../helpers/client/zones-client.ts';
import { readTargetConfig, type TargetConfig } from '../helpers/config.ts';
import type { Exchange } from '../helpers/evidence/exchange.ts';
import { Ledger, readLedger } from '../helpers/ownership/ledger.ts';
import { retryAfterMs, Throttle } from '../helpers/pacing/throttle.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { listening } from './support/fronts.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function reference(): Promise<RunningReference> {
  const running = await startReference();
  cleanups.push(() => running.close());
  return running;
}

/** A front for the reference that swallows every POST after passing it on: the create happens, the answer never comes. */
async function blackHoleForCreates(upstream: RunningReference): Promise<string> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = await fetch(`${upstream.url}${req.url}`, {
      method: req.method,
      headers: { [upstream.style.authHeader]: upstream.token, 'content-type': 'application/json' },
      body: req.method === 'GET' ? undefined : Buffer.concat(chunks),
    });
    if (req.method === 'POST') return; // never answered
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
  });
  const front = await listening(server, 'http');
  cleanups.push(front.close);
  return front.url;
}

/** Listens on 127.0.0.1, closed after the test; the settings that point the client at it. */
async function configFor(server: Server): Promise<TargetConfig> {
  const front = await listening(server, 'http');
  cleanups.push(front.close);
  return {
    ...readTargetConfig({}),
    baseUrl: front.url,
    token: 't',
    // Short, so that an outage a test provokes is spent in a second or two.
    outageBudgetMs: 1_500,
  };
}

function client(config: TargetConfig) {
  const sent: Exchange[] = [];
  const ledger = new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-resilience-')), 'run.jsonl'));
  return { api: new ZonesClient(config, { ledger, onExchange: (e) => sent.push(e) }), sent, ledger };
}

test('a create that times out is not sent again; the zone it made is found by name and owned', async () => {
  const upstream = await reference();
  const config = {
    ...configForReference(readTargetConfig({}), upstream),
    baseUrl: await blackHoleForCreates(upstream),
    timeoutMs: 400,
  };
  const { api, sent, ledger } = client(config);
  await expect(api.createZone({ name: 'zc-timeout-probe', coverage: {} })).rejects.toThrow(TransportError);
  expect(sent.filter((e) => e.method === 'POST')).toHaveLength(1);
  const owned = readLedger(ledger.path).filter((e) => e.event === 'created');
  expect(owned).toEqual([expect.objectContaining({ name: 'zc-timeout-probe' })]);
  expect(ledger.owns(owned[0]!.id)).toBe(true);
});

test("a GET that gets no answer or a gateway's 503 is asked again until the outage budget is spent; a DELETE is not sent twice", async () => {
  const server = createServer((req, res) => {
    if (req.method === 'GET' && !(server as Server & { answered?: boolean }).answered) {
      (server as Server & { answered?: boolean }).answered = true;
      req.socket.destroy();
      return;
    }
    res.writeHead(503, { 'content-type': 'text/html' }).end('<html><title>Back soon</title></html>');
  });
  const config = await configFor(server);
  const { api, sent, ledger } = client(config);
  const started = Date.now();
  const error = await api.listZones().catch((e: unknown) => e);
  // A 503 never reaches a check: the caller gets the outage, with what came back and since when.
  expect(error).toBeInstanceOf(ShopUnavailableError);
  expect((error as ShopUnavailableError).outage.spent).toBe(true);
  expect((error as Error).message).toMatch(
    /answered 503 Service Unavailable \(text\/html, a page titled "Back soon"\).*longer than ZONES_OUTAGE_BUDGET_MS=1500/,
  );
  expect(Date.now() - started).toBeGreaterThanOrEqual(1_500 - 50);
  expect(sent[0]!.status).toBeUndefined();
  expect(sent.slice(1).every((e) => e.status === 503)).toBe(true);
  // Backing off from 0.5 s, a 1.5 s budget holds a handful of GETs, not a flood.
  expect(sent.length).toBeGreaterThanOrEqual(3);
  expect(sent.length).toBeLessThanOrEqual(6);
  // Spent: the next request is sent once and not waited for, a write never twice anyway.
  ledger.record({ event: 'created', id: '42', name: 'zc-x' });
  sent.length = 0;
  await expect(api.deleteZone({ text: '42' })).rejects.toThrow(ShopUnavailableError);
  await expect(api.listZones()).rejects.toThrow(ShopUnavailableError);
  expect(sent.map((e) => e.method)).toEqual(['DELETE', 'GET']);
});

test("a 500 is the application's own answer: it reaches the check, and is not asked again", async () => {
  const server = createServer((_req, res) => {
    res.writeHead(500, { 'content-type': 'text/html' }).end('<html><title>Internal Server Error</title></html>');
  });
  const config = await configFor(server);
  const { api, sent } = client(config);
  expect((await api.listZones()).status).toBe(500);
  expect(sent).toHaveLength(1);
});

test('an outage ends with any answer of the shop: the budget starts again at the next one', async () => {
  let calls = 0;
  const server = createServer((_req, res) => {
    calls += 1;
    // Two 502s and an answer, twice: each outage ends within the budget, the two together would not.
    if (calls % 3 === 0) res.writeHead(200, { 'content-type': 'application/json' }).end('{"zones":[]}');
    else res.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway');
  });
  const config = await configFor(server);
  const { api } = client(config);
  expect((await api.listZones()).status).toBe(200);
  expect((await api.listZones()).status).toBe(200);
  expect(api.transport.spentOutage()).toBeUndefined();
});

test('a 503 with Retry-After holds every request until then; a GET is sent again after it, a DELETE is not', async () => {
  const arrivals: { method: string; at: number }[] = [];
  const server = createServer((req, res) => {
    arrivals.push({ method: req.method ?? '', at: Date.now() });
    const busy = req.method === 'DELETE' || arrivals.filter((a) => a.method === 'GET').length <= 2;
    if (busy) res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '0.3' }).end('{"errors":"busy"}');
    else res.writeHead(200, { 'content-type': 'application/json' }).end('{"zones":[]}');
  });
  const config = await configFor(server);
  const { api, sent, ledger } = client(config);
  expect((await api.listZones()).status).toBe(200);
  expect(sent.map((e) => e.status)).toEqual([503, 503, 200]);
  ledger.record({ event: 'created', id: '42', name: 'zc-x' });
  await expect(api.deleteZone({ text: '42' })).rejects.toThrow(ShopUnavailableError);
  await api.listZones();
  expect(arrivals.map((a) => a.method)).toEqual(['GET', 'GET', 'GET', 'DELETE', 'GET']);
  // Every request after a 503 waited out its Retry-After, the one after the DELETE's included.
  for (const i of [1, 2, 4]) expect(arrivals[i]!.at - arrivals[i - 1]!.at).toBeGreaterThanOrEqual(300);
});

test('Retry-After is read as whole or fractional seconds, or as a date', () => {
  expect(retryAfterMs('2.0')).toBe(2000);
  expect(retryAfterMs('0.473')).toBe(473);
  expect(retryAfterMs('1')).toBe(1000);
  expect(retryAfterMs(new Date(Date.now() + 3000).toUTCString())).toBeGreaterThan(1000);
  expect(retryAfterMs(undefined)).toBeUndefined();
  expect(retryAfterMs('soon')).toBeUndefined();
});

// On vitest's clock: the throttle reads Date.now and waits with setTimeout, both of them faked here, so
// the waits are the throttle's own to the millisecond and take no time.
test('after a 429, nothing is let through before the window ends; ZONES_MAX_RPS spaces requests', async () => {
  vi.useFakeTimers();
  onTestFinished(() => void vi.useRealTimers());
  /** When `ready()` let the request go, the faked timers run until it did. */
  const readyAt = async (throttle: Throttle): Promise<number> => {
    let at: number | undefined;
    const ready = throttle.ready().then(() => (at = Date.now()));
    await vi.runAllTimersAsync();
    await ready;
    return at!;
  };

  const throttle = new Throttle(0);
  throttle.tooManyRequests({ 'retry-after': '0.3' }, 0);
  const blocked = Date.now();
  expect((await readyAt(throttle)) - blocked).toBeGreaterThanOrEqual(300);
  expect(throttle.throttled).toBe(1);

  const paced = new Throttle(20);
  const started = Date.now();
  let last = started;
  for (let i = 0; i < 5; i += 1) last = await readyAt(paced);
  expect(last - started).toBeGreaterThanOrEqual(4 * 50 - 5);
});

test('without Retry-After, the back-off grows', () => {
  const throttle = new Throttle(0);
  const first = throttle.tooManyRequests({}, 0);
  const third = throttle.tooManyRequests({}, 2);
  expect(third).toBeGreaterThan(first);
});
