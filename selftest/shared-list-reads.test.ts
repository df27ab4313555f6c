// Shared list reads (docs/performance.md): checks waiting for the same list share one walk through its
// pages, the walk under way included, since no write of the suite goes out during a walk (so it
// observes every write a check had answered); a check that waited out the read-after-write window
// takes only a walk that starts after; each check keeps the pages in its evidence, and each request is
// counted once.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { Ledger } from '../helpers/ownership/ledger.ts';
import { type Exchange, ZonesClient } from '../helpers/target/client.ts';
import { zonesOf } from '../helpers/target/list-lookups.ts';
import { listening } from './support/fronts.ts';

const LIST = '/admin/api/2026-07/zones.json';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

interface PagedShop {
  url: string;
  /** Path and query of every request, in order. */
  asked: string[];
  /** Holds every first page until released, so that a walk can be caught under way. */
  holdFirstPages(): () => void;
}

/** A list of two pages, the second holding the newest zone; a create makes a newer one. */
async function pagedShop(): Promise<PagedShop> {
  const asked: string[] = [];
  let newest = 2;
  let hold: Promise<void> | undefined;
  const server = createServer(async (req, res) => {
    asked.push(`${req.method === 'GET' ? '' : `${req.method} `}${req.url ?? ''}`);
    if (req.headers['x-shopify-access-token'] !== 'shpat_shared_0123') {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"errors":"Unauthorized"}');
      return;
    }
    if (req.method === 'POST') {
      for await (const _ of req);
      newest += 1;
      res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ zone: { id: newest } }));
      return;
    }
    const second = new URL(req.url ?? '/', 'http://x').searchParams.get('page') === '2';
    if (!second && hold) await hold;
    const zones = second ? [{ id: newest, name: `zone-${newest}` }] : [{ id: 1, name: 'zone-1' }];
    const link = second ? {} : { link: `<${origin}${LIST}?page=2>; rel="next"` };
    res.writeHead(200, { 'content-type': 'application/json', ...link }).end(JSON.stringify({ zones }));
  });
  const front = await listening(server, 'http');
  const origin = front.url;
  closers.push(front.close);
  return {
    url: origin,
    asked,
    holdFirstPages: () => {
      let release = () => {};
      hold = new Promise((resolve) => {
        release = () => {
          hold = undefined;
          resolve();
        };
      });
      return release;
    },
  };
}

/** A check's client, with what it sent and what it only witnessed kept apart. */
function checkOn(shop: PagedShop, settings: Record<string, string> = {}) {
  const config = readTargetConfig({ ZONES_BASE_URL: shop.url, ZONES_ACCESS_TOKEN: 'shpat_shared_0123', ...settings });
  const sent: Exchange[] = [];
  const witnessed: Exchange[] = [];
  const api = new ZonesClient(config, {
    ledger: new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-shared-')), 'run.jsonl')),
    onExchange: (exchange) => sent.push(exchange),
    onWitnessed: (exchange) => witnessed.push(exchange),
  });
  return { api, sent, witnessed };
}

const ids = (list: Awaited<ReturnType<ZonesClient['listZones']>>) => zonesOf(list).map((zone) => zone.id.text);

test('checks that ask at the same moment share one walk: each sees every page, one of them sends and counts it', async () => {
  const shop = await pagedShop();
  const [a, b, c] = [checkOn(shop), checkOn(shop), checkOn(shop)];
  const lists = await Promise.all([a.api.listZones(), b.api.listZones(), c.api.listZones()]);
  expect(shop.asked).toEqual([LIST, `${LIST}?page=2`]);
  for (const list of lists) expect(ids(list)).toEqual(['1', '2']);
  expect(a.sent.map((exchange) => exchange.url)).toEqual([`${shop.url}${LIST}`, `${shop.url}${LIST}?page=2`]);
  for (const joined of [b, c]) {
    expect(joined.sent).toEqual([]);
    expect(joined.witnessed).toEqual(a.sent);
  }
});

/** Until the shop has been asked for this many requests. */
async function untilAsked(shop: PagedShop, requests: number): Promise<void> {
  while (shop.asked.length < requests) await new Promise((resolve) => setTimeout(resolve, 5));
}

test('a check that asks while a walk is under way joins it, the pages read before it asked included', async () => {
  const shop = await pagedShop();
  const [early, late] = [checkOn(shop), checkOn(shop)];
  const release = shop.holdFirstPages();
  const first = early.api.listZones();
  await untilAsked(shop, 1);
  const second = late.api.listZones();
  release();
  expect(ids(await first)).toEqual(['1', '2']);
  expect(ids(await second)).toEqual(['1', '2']);
  expect(shop.asked).toEqual([LIST, `${LIST}?page=2`]);
  expect(late.sent).toEqual([]);
  expect(late.witnessed).toEqual(early.sent);
});

test('a write asked during a walk waits for it to end, so the read-back after it is the next walk, which observes it', async () => {
  const shop = await pagedShop();
  const [early, writer] = [checkOn(shop), checkOn(shop)];
  const release = shop.holdFirstPages();
  const first = early.api.listZones();
  await untilAsked(shop, 1);
  const readBack = writer.api.createZone({ name: 'zone-3' }).then(() => writer.api.listZones());
  await new Promise((resolve) => setTimeout(resolve, 50));
  // The create has not gone out: the walk's first page is still on its way.
  expect(shop.asked).toEqual([LIST]);
  release();
  expect(ids(await first)).toEqual(['1', '2']);
  expect(ids(await readBack)).toEqual(['1', '3']);
  expect(shop.asked).toEqual([LIST, `${LIST}?page=2`, `POST ${LIST}`, LIST, `${LIST}?page=2`]);
});

test('a check that waited out the read-after-write window takes only a walk that starts after: never the one under way', async () => {
  const shop = await pagedShop();
  const [early, patient] = [checkOn(shop), checkOn(shop, { ZONES_CONSISTENCY_TIMEOUT_MS: '20' })];
  const release = shop.holdFirstPages();
  const first = early.api.listZones();
  await untilAsked(shop, 1);
  const afterWindow = patient.api.listZones({ settle: 'after-timeout' });
  await new Promise((resolve) => setTimeout(resolve, 60));
  release();
  await Promise.all([first, afterWindow]);
  expect(shop.asked).toEqual([LIST, `${LIST}?page=2`, LIST, `${LIST}?page=2`]);
  expect(patient.sent).toHaveLength(2);
  expect(patient.witnessed).toEqual([]);
});

test('reads asked one after another are each their own walk', async () => {
  const shop = await pagedShop();
  const a = checkOn(shop);
  await a.api.listZones();
  await a.api.listZones();
  expect(shop.asked).toHaveLength(4);
  expect(a.sent).toHaveLength(4);
  expect(a.witnessed).toEqual([]);
});

test('a refused read is never shared: each check sends its own', async () => {
  const shop = await pagedShop();
  const [a, b] = [checkOn(shop), checkOn(shop)];
  const answers = await Promise.all([a.api.listZones({ auth: 'none' }), b.api.listZones({ auth: 'none' })]);
  expect(answers.map((answer) => answer.status)).toEqual([401, 401]);
  expect([a.sent.length, b.sent.length, a.witnessed.length, b.witnessed.length]).toEqual([1, 1, 0, 0]);
});
