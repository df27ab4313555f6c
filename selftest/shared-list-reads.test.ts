// Shared list reads (docs/performance.md): checks waiting for the same list at the same moment share
// one walk through its pages, a check never joins a walk that started before it asked (so it observes
// its own writes), each check keeps the pages in its evidence, and each request is counted once.
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
  /** Zones the shop lists from now on: two pages, the second holding the newest zone. */
  setNewest(id: number): void;
  /** Holds every first page until released, so that a walk can be caught under way. */
  holdFirstPages(): () => void;
}

async function pagedShop(): Promise<PagedShop> {
  const asked: string[] = [];
  let newest = 2;
  let hold: Promise<void> | undefined;
  const server = createServer(async (req, res) => {
    asked.push(req.url ?? '');
    if (req.headers['x-shopify-access-token'] !== 'shpat_shared_0123') {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"errors":"Unauthorized"}');
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
    setNewest: (id) => {
      newest = id;
    },
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
function checkOn(shop: PagedShop) {
  const config = readTargetConfig({ ZONES_BASE_URL: shop.url, ZONES_ACCESS_TOKEN: 'shpat_shared_0123' });
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

test('a check that asks while a walk is under way does not join it: the next walk, started after, serves it and every check that asked meanwhile', async () => {
  const shop = await pagedShop();
  const [early, late, later] = [checkOn(shop), checkOn(shop), checkOn(shop)];
  const release = shop.holdFirstPages();
  const first = early.api.listZones();
  // The walk's first page is on its way: a write answered now, then reads asked now.
  while (shop.asked.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  shop.setNewest(3);
  const second = late.api.listZones();
  const third = later.api.listZones();
  release();
  // The walk that was under way serves its own caller only; the newer one serves both later callers.
  expect(ids(await first)).toEqual(['1', '3']);
  expect(ids(await second)).toEqual(['1', '3']);
  expect(ids(await third)).toEqual(['1', '3']);
  expect(shop.asked).toEqual([LIST, `${LIST}?page=2`, LIST, `${LIST}?page=2`]);
  expect([early.sent.length, late.sent.length + later.sent.length]).toEqual([2, 2]);
  expect(late.witnessed.length + later.witnessed.length).toBe(2);
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
