// The client against answers past the suite's limits, on servers of the test's own: what it records,
// what it throws, whether it sends again, and how the verdict counts it. The token stays out of all.
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { BodyLimitError } from '../helpers/client/shop-transport.ts';
import { ZonesClient } from '../helpers/client/zones-client.ts';
import { readTargetConfig } from '../helpers/config.ts';
import { formatExchange, summarizeExchange } from '../helpers/evidence/evidence.ts';
import type { Exchange } from '../helpers/evidence/exchange.ts';
import { classify } from '../helpers/judging/verdict.ts';
import { Ledger } from '../helpers/ownership/ledger.ts';
import { listening } from './support/fronts.ts';

const TOKEN = 'shpat_limits_0123456789abcdef';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A target of the test's own on 127.0.0.1; `sent` counts the body bytes it managed to write. */
async function target(
  answer: (req: IncomingMessage, res: ServerResponse, count: (bytes: number) => void) => void,
): Promise<{ url: string; requests: () => number; sent: () => number }> {
  let requests = 0;
  let sent = 0;
  const server = createServer((req, res) => {
    requests += 1;
    answer(req, res, (bytes) => (sent += bytes));
  });
  const front = await listening(server, 'http');
  closers.push(front.close);
  return {
    url: front.url,
    requests: () => requests,
    sent: () => sent,
  };
}

/** Writes `chunk` while the client takes it, for as long as the connection lasts. */
function streamForever(res: ServerResponse, chunk: Buffer, count: (bytes: number) => void): void {
  const pump = () => {
    while (!res.destroyed) {
      count(chunk.length);
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
  };
  pump();
}

function client(
  baseUrl: string,
  env: Record<string, string> = {},
  resendTimedOutGets?: boolean,
  frontPagesAnswer?: boolean,
) {
  const sent: Exchange[] = [];
  const ledger = new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-limits-')), 'run.jsonl'));
  const config = { ...readTargetConfig({ ZONES_BASE_URL: baseUrl, ZONES_ACCESS_TOKEN: TOKEN, ...env }) };
  const options = { ledger, onExchange: (e: Exchange) => sent.push(e), resendTimedOutGets, frontPagesAnswer };
  return { api: new ZonesClient(config, options), sent };
}

test('a body announced at 300 MB is refused after a glimpse: the error and the record name the limit and what came', async () => {
  const shop = await target((_req, res, count) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(300 * 1024 * 1024) });
    res.write('{"zones":[');
    streamForever(res, Buffer.from('{"id":1,"name":"a"},'.repeat(500)), count);
  });
  const { api, sent } = client(shop.url);
  const error = await api.listZones().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(BodyLimitError);
  expect((error as Error).message).toMatch(
    /^GET http:\S+zones\.json answered 200 \(application\/json\), but its body is 314572800 bytes by its Content-Length, past ZONES_MAX_BODY_BYTES=8388608, so the suite did not read it \(it began "\{"zones":\[\{"id":1,"name":"a"\}/,
  );
  // Not sent again: the same answer would come.
  expect(shop.requests()).toBe(1);
  expect(sent).toHaveLength(1);
  expect(formatExchange(sent[0]!)).toMatch(
    /< 200 application\/json \(\d+ ms\)\n {2}\[not read whole: its body is 314572800 bytes by its Content-Length.*\]\n {2}\{"zones":\[/,
  );
  expect(summarizeExchange(sent[0]!)).toMatch(/-> 200 \(body not read whole: size limit\)$/);
  // The server was stopped long before 300 MB: what it wrote is what socket buffers took.
  expect(shop.sent()).toBeLessThan(64 * 1024 * 1024);
});

test('a streamed body past ZONES_MAX_BODY_BYTES is cut there, and a token split by the cut is not shown', async () => {
  // The page echoes the token right where the evidence is cut off: its start must not show.
  const shop = await target((_req, res, count) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`${'x'.repeat(4096 - 5)}${TOKEN}`);
    streamForever(res, Buffer.alloc(16 * 1024, 0x20), count);
  });
  const { api, sent } = client(shop.url, { ZONES_MAX_BODY_BYTES: '65536' });
  await expect(api.listZones()).rejects.toThrow(
    /its body ran past ZONES_MAX_BODY_BYTES=65536 bytes, so the suite stopped reading it .*raise ZONES_MAX_BODY_BYTES/,
  );
  expect(sent[0]!.responseBody).toMatch(/^x+$/);
  expect(JSON.stringify(sent)).not.toContain(TOKEN.slice(0, 5));
  expect(shop.sent()).toBeLessThan(64 * 1024 * 1024);
});

test('a sign-in page is named as what came back, in the list reason and in the evidence, with the token masked', async () => {
  const shop = await target((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(`<!DOCTYPE html><html><head><title>Sign in</title></head><body>session ${TOKEN}</body></html>`);
  });
  // As the preflight reads it: the page is the answer, to be named. In the tests it never reaches a
  // check (shop-outage.test.ts): there it is waited out like a gateway's answer.
  const { api } = client(shop.url, {}, undefined, true);
  const list = await api.listZones();
  expect(list.read).toEqual({
    ok: false,
    problem: expect.stringMatching(
      /^the body is HTML, not JSON \(text\/html; charset=utf-8\), beginning "<!DOCTYPE html><html><head><title>Sign in.*a sign-in page\?/,
    ),
  });
  expect(formatExchange(list.exchange)).toMatch(
    /< 200 text\/html; charset=utf-8 \(\d+ ms\)\n {2}\[the body is HTML, not JSON/,
  );
  expect(JSON.stringify(list)).not.toContain(TOKEN);
});

test('JSON nested 100,000 deep is refused unread, without retries and without a stack overflow', async () => {
  const shop = await target((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(`{"zones":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
  });
  const { api } = client(shop.url);
  await expect(api.listZones()).rejects.toThrow(
    /answered 200 \(application\/json\), but its body is JSON nested deeper than 256 levels, which the suite does not read \(it began "\{"zones":\[\[\[/,
  );
  expect(shop.requests()).toBe(1);
});

test('a body that trickles past the deadline is cut at ZONES_TIMEOUT_MS, though every byte would reset an idle time-out', async () => {
  const shop = await target((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"zones":[');
    const drip = setInterval(() => res.write(' '), 50);
    res.on('close', () => clearInterval(drip));
  });
  // As the preflight asks: a GET that ran out of time is not sent again.
  const { api, sent } = client(shop.url, { ZONES_TIMEOUT_MS: '400' }, false);
  await expect(api.listZones()).rejects.toThrow(
    /its body was still coming when the time limit ZONES_TIMEOUT_MS=400 ran out \(\d+ bytes by then; it began "\{"zones":\["\)/,
  );
  expect(shop.requests()).toBe(1);
  expect(sent[0]!.status).toBe(200);
});

test('an answer past a limit leaves the check not verified, naming the limit; it is never a failure of the rule', () => {
  const message =
    'GET http://shop/admin/api/2026-07/zones.json answered 200 (application/json), but its body ran past ZONES_MAX_BODY_BYTES=8388608 bytes';
  expect(classify({ state: 'failed', requests: 2, errorName: 'BodyLimitError', errorMessage: message })).toEqual({
    state: 'not-verified',
    reason: `no readable answer to check against: ${message}`,
  });
});

test('ZONES_MAX_BODY_BYTES is a whole number of bytes within bounds', () => {
  expect(readTargetConfig({}).maxBodyBytes).toBe(8 * 1024 * 1024);
  expect(readTargetConfig({ ZONES_MAX_BODY_BYTES: '1048576' }).maxBodyBytes).toBe(1048576);
  for (const bad of ['8MB', '12', '1e12', '-1'])
    expect(() => readTargetConfig({ ZONES_MAX_BODY_BYTES: bad })).toThrow(
      /ZONES_MAX_BODY_BYTES must be a whole number of bytes from 1024 to 33554432/,
    );
});
