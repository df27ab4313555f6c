// The list walk of each ZONES_PAGING mode, through the real client against scripted shops: every
// page is read, the filter rides on every page request, a shop that ignores the paging parameter
// neither loops nor doubles its list, and the credential never leaves the shop's host.
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { PreconditionError } from '../helpers/client/records.ts';
import { type ListAnswer, ZonesClient } from '../helpers/client/zones-client.ts';
import { type Environment, readTargetConfig } from '../helpers/config.ts';
import type { Exchange } from '../helpers/evidence/exchange.ts';
import { type ExchangeDetail, exchangeDetail } from '../helpers/evidence/exchange-detail.ts';
import { CannotRunError } from '../helpers/exit-codes.ts';
import { Ledger } from '../helpers/ownership/ledger.ts';
import { preflight } from '../helpers/runner/preflight.ts';

const LIST = '/admin/api/2026-07/zones.json';

interface ScriptedShop {
  url: string;
  /** Path and query of every request, in order. */
  asked: string[];
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A shop that answers every GET with the status (200 unless given), body (text) and headers the script gives for its URL. */
async function scriptedShop(
  script: (url: URL, origin: string) => { status?: number; body: string; headers?: Record<string, string> },
): Promise<ScriptedShop> {
  const asked: string[] = [];
  let origin = '';
  const server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const { status, body, headers } = script(new URL(req.url ?? '/', origin), origin);
    res.writeHead(status ?? 200, { 'content-type': 'application/json', ...headers }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: origin, asked };
}

function clientFor(shop: ScriptedShop, settings: Environment, onExchange?: (exchange: Exchange) => void): ZonesClient {
  const config = readTargetConfig({ ZONES_BASE_URL: shop.url, ZONES_ACCESS_TOKEN: 'shpat_walk_0123', ...settings });
  const ledger = new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-paging-')), 'run.jsonl'));
  return new ZonesClient(config, { ledger, onExchange });
}

const records = (ids: (number | string)[]) =>
  ids
    .map(
      (id) =>
        `{"id":${typeof id === 'number' ? id : JSON.stringify(id)},"name":"z${id}","coverage":{},"status":"draft"}`,
    )
    .join(',');
const idsOf = (list: ListAnswer) => (list.read.ok ? list.read.zones.map((zone) => zone.id.text) : list.read.problem);
const ZONES = [1, 2, 3, 4, 5, 6, 7];

test('page numbers: every page is read, with the filter on each, until a page brings nothing', async () => {
  const shop = await scriptedShop((url) => {
    const page = Number(url.searchParams.get('p') ?? '1');
    return { body: `{"zones":[${records(ZONES.slice((page - 1) * 3, page * 3))}]}` };
  });
  const list = await clientFor(shop, { ZONES_PAGING: 'page', ZONES_PAGE_PARAM: 'p' }).listZones({ status: 'draft' });
  expect(idsOf(list)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  expect(shop.asked).toEqual([
    `${LIST}?status=draft`,
    `${LIST}?status=draft&p=2`,
    `${LIST}?status=draft&p=3`,
    `${LIST}?status=draft&p=4`,
  ]);
  expect(list.pages).toHaveLength(4);
});

test('page numbers: a shop that ignores the parameter is read once more, not 1000 times, and not counted twice', async () => {
  const shop = await scriptedShop(() => ({ body: `[${records([1, 2, 3])}]` }));
  const list = await clientFor(shop, { ZONES_ENVELOPE: 'bare', ZONES_PAGING: 'page' }).listZones();
  expect(idsOf(list)).toEqual(['1', '2', '3']);
  expect(shop.asked).toEqual([LIST, `${LIST}?page=2`]);
});

test('page numbers: a zone shown again on the next page (the list shifted) counts once', async () => {
  const pages: Record<string, number[]> = { 1: [1, 2, 3], 2: [3, 4, 5], 3: [] };
  const shop = await scriptedShop((url) => ({
    body: `{"zones":[${records(pages[url.searchParams.get('page') ?? '1']!)}]}`,
  }));
  const list = await clientFor(shop, { ZONES_PAGING: 'page' }).listZones();
  expect(idsOf(list)).toEqual(['1', '2', '3', '4', '5']);
});

test('page numbers: a page number past the last answered 404 (as Django REST framework does) ends the list', async () => {
  const shop = await scriptedShop((url) => {
    const page = Number(url.searchParams.get('page') ?? '1');
    return page > 2
      ? { status: 404, body: '{"detail":"Invalid page."}' }
      : { body: `{"results":[${records(ZONES.slice((page - 1) * 3, page * 3))}]}` };
  });
  const list = await clientFor(shop, { ZONES_LIST_KEY: 'results', ZONES_PAGING: 'page' }).listZones();
  expect(idsOf(list)).toEqual(['1', '2', '3', '4', '5', '6']);
  expect([list.status, list.pages.map((page) => page.status)]).toEqual([200, [200, 200, 404]]);
});

test("page numbers: a 404 to the first request, or another refusal past it, is the list's answer", async () => {
  const missing = await scriptedShop(() => ({ status: 404, body: '{"errors":"Not Found"}' }));
  expect((await clientFor(missing, { ZONES_PAGING: 'page' }).listZones()).status).toBe(404);
  const failing = await scriptedShop((url) =>
    url.searchParams.has('page')
      ? { status: 400, body: '{"errors":"bad page"}' }
      : { body: `{"zones":[${records([1])}]}` },
  );
  expect((await clientFor(failing, { ZONES_PAGING: 'page' }).listZones()).status).toBe(400);
});

test('page numbers: a Link header is not followed, so no page is read twice', async () => {
  const shop = await scriptedShop((url) => ({
    body: `{"zones":[${records(url.searchParams.has('page') ? [] : [1])}]}`,
    headers: { link: `<${LIST}?page_info=x>; rel="next"` },
  }));
  await clientFor(shop, { ZONES_PAGING: 'page' }).listZones();
  expect(shop.asked).toEqual([LIST, `${LIST}?page=2`]);
});

// Drift reads the exchanges the client recorded: both must take the same page for the next one, or
// it lines up pages the client never asked for. rel is a list of relation types, of which only `next` is.
test.for([
  { label: 'rel="nextpage" names no next page', link: `<${LIST}?page_info=2>; rel="nextpage"`, pages: 1 },
  { label: 'rel="prev next" names the next page', link: `<${LIST}?page_info=2>; rel="prev next"`, pages: 2 },
  { label: 'a bare rel=NEXT names it too', link: `<${LIST}?page_info=2>; rel=NEXT`, pages: 2 },
  { label: 'an address that is no URL is refused', link: '<http://shop .test/z>; rel="next"', pages: 1, refused: true },
])('link: the client and the evidence agree on where a list goes on: $label', async ({ link, pages, refused }) => {
  const shop = await scriptedShop((url) =>
    url.searchParams.has('page_info')
      ? { body: `{"zones":[${records([2])}]}` }
      : { body: `{"zones":[${records([1])}]}`, headers: { link } },
  );
  const details: ExchangeDetail[] = [];
  const read = clientFor(shop, {}, (exchange) => details.push(exchangeDetail(exchange, () => true))).listZones();
  if (refused) {
    await expect(read).rejects.toMatchObject({ name: 'TypeError', message: 'Invalid URL' });
    expect(details[0]).toMatchObject({ unreadableNextPage: 'http://shop .test/z' });
  } else expect(idsOf(await read)).toEqual(['1', '2'].slice(0, pages));
  expect(shop.asked).toHaveLength(pages);
  const followed = details.slice(1).map((detail) => detail.url);
  expect(details.flatMap((detail) => detail.nextPage ?? [])).toEqual(followed);
});

test('cursor: the cursor at a dotted path goes back in its parameter beside the filter, until it is null', async () => {
  const shop = await scriptedShop((url) => {
    const from = Number(url.searchParams.get('after') ?? '0');
    const next = from + 3 < ZONES.length ? `"${from + 3}"` : 'null';
    return { body: `{"data":[${records(ZONES.slice(from, from + 3))}],"meta":{"next_cursor":${next}}}` };
  });
  const settings = {
    ZONES_LIST_KEY: 'data',
    ZONES_PAGING: 'cursor',
    ZONES_CURSOR_FIELD: 'meta.next_cursor',
    ZONES_CURSOR_PARAM: 'after',
  };
  const list = await clientFor(shop, settings).listZones({ status: 'draft' });
  expect(idsOf(list)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  expect(shop.asked).toEqual([`${LIST}?status=draft`, `${LIST}?status=draft&after=3`, `${LIST}?status=draft&after=6`]);
});

test.for([
  ['an empty cursor', '{"zones":[{ZONES}],"next_cursor":""}'],
  ['a null cursor', '{"zones":[{ZONES}],"next_cursor":null}'],
  ['no cursor at all', '{"zones":[{ZONES}]}'],
] as const)('cursor: %s ends the list', async ([, template]) => {
  const shop = await scriptedShop(() => ({ body: template.replace('{ZONES}', records([1])) }));
  const list = await clientFor(shop, { ZONES_PAGING: 'cursor' }).listZones();
  expect(idsOf(list)).toEqual(['1']);
  expect(shop.asked).toEqual([LIST]);
});

test('cursor: a shop that ignores the cursor and repeats it ends after the second page, its zones counted once', async () => {
  const shop = await scriptedShop(() => ({ body: `{"zones":[${records([1, 2])}],"next_cursor":"same"}` }));
  const list = await clientFor(shop, { ZONES_PAGING: 'cursor' }).listZones();
  expect(idsOf(list)).toEqual(['1', '2']);
  expect(shop.asked).toEqual([LIST, `${LIST}?cursor=same`]);
});

test('cursor: a cursor that repeats while the pages move on (scroll style) is followed to the end', async () => {
  let served = 0;
  const shop = await scriptedShop(() => {
    const page = ZONES.slice(served, served + 3);
    served += 3;
    return { body: `{"zones":[${records(page)}],"next_cursor":${page.length > 0 ? '"scroll-1"' : 'null'}}` };
  });
  const list = await clientFor(shop, { ZONES_PAGING: 'cursor' }).listZones();
  expect(idsOf(list)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  expect(shop.asked).toEqual([LIST, `${LIST}?cursor=scroll-1`, `${LIST}?cursor=scroll-1`, `${LIST}?cursor=scroll-1`]);
});

test('cursor: an empty page that names a next one does not end the list', async () => {
  const pages: Record<string, string> = {
    first: `{"zones":[],"next_cursor":"b"}`,
    b: `{"zones":[${records([9])}],"next_cursor":null}`,
  };
  const shop = await scriptedShop((url) => ({ body: pages[url.searchParams.get('cursor') ?? 'first']! }));
  expect(idsOf(await clientFor(shop, { ZONES_PAGING: 'cursor' }).listZones())).toEqual(['9']);
});

test('cursor: a cursor that is a URL on the same host is followed as it is, relative or absolute', async () => {
  const shop = await scriptedShop((url, origin) => {
    const step = url.searchParams.get('step') ?? '0';
    const nextOf: Record<string, string> = {
      0: `"${LIST}?step=1&status=draft"`,
      1: `"${origin}${LIST}?step=2&status=draft"`,
      2: 'null',
    };
    const next = nextOf[step];
    return { body: `{"zones":[${records([`s${step}`])}],"next_cursor":${next}}` };
  });
  const list = await clientFor(shop, { ZONES_PAGING: 'cursor' }).listZones({ status: 'draft' });
  expect(idsOf(list)).toEqual(['s0', 's1', 's2']);
  expect(shop.asked).toEqual([`${LIST}?status=draft`, `${LIST}?step=1&status=draft`, `${LIST}?step=2&status=draft`]);
});

test('cursor: a cursor URL on another host is not followed, and the list cannot be read whole', async () => {
  const elsewhere = await scriptedShop(() => ({ body: '{"zones":[]}' }));
  const shop = await scriptedShop(() => ({
    body: `{"zones":[${records([1])}],"next_cursor":"${elsewhere.url}${LIST}?cursor=2"}`,
  }));
  const read = clientFor(shop, { ZONES_PAGING: 'cursor' }).listZones();
  await expect(read).rejects.toThrow(PreconditionError);
  await expect(read).rejects.toThrow(`the list's next page is on another host (${elsewhere.url})`);
  expect(elsewhere.asked).toEqual([]);
});

test('cursor: a cursor that is neither text nor a number stops the walk with the reason', async () => {
  const shop = await scriptedShop(() => ({ body: `{"zones":[${records([1])}],"next_cursor":{"after":1}}` }));
  await expect(clientFor(shop, { ZONES_PAGING: 'cursor' }).listZones()).rejects.toThrow(
    /next cursor "next_cursor" is neither text nor a number/,
  );
});

test.for([
  [
    'page numbers',
    { ZONES_PAGING: 'page' },
    [`${LIST}?status=draft&limit=3`, `${LIST}?status=draft&limit=3&page=2`, `${LIST}?status=draft&limit=3&page=3`],
  ],
  [
    'cursor',
    { ZONES_PAGING: 'cursor' },
    [`${LIST}?status=draft&limit=3`, `${LIST}?status=draft&limit=3&cursor=3`, `${LIST}?status=draft&limit=3&cursor=6`],
  ],
  // A Link is followed as the shop wrote it: this shop's carries no size, and none is added.
  ['link', {}, [`${LIST}?status=draft&limit=3`, `${LIST}?status=draft&from=3`, `${LIST}?status=draft&from=6`]],
] as const)(
  "ZONES_PAGE_SIZE with %s paging: asked for on the first page, kept wherever the suite builds the next page's URL",
  async ([, settings, asked]) => {
    const shop = await scriptedShop((url) => {
      const size = Number(url.searchParams.get('limit') ?? '3');
      const from = Number(url.searchParams.get('cursor') ?? url.searchParams.get('from') ?? '0');
      const page = Number(url.searchParams.get('page') ?? '1');
      const start = url.searchParams.has('page') ? (page - 1) * size : from;
      const next = start + size < ZONES.length ? start + size : undefined;
      return {
        body: `{"zones":[${records(ZONES.slice(start, start + size))}],"next_cursor":${next ?? 'null'}}`,
        headers: next === undefined ? undefined : { link: `<${LIST}?status=draft&from=${next}>; rel="next"` },
      };
    });
    const list = await clientFor(shop, { ...settings, ZONES_PAGE_SIZE: '3' }).listZones({ status: 'draft' });
    expect(idsOf(list)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    expect(shop.asked.slice(0, 3)).toEqual(asked);
  },
);

test('a list that never ends still stops at 1000 pages and is reported as not readable whole', async () => {
  const shop = await scriptedShop((url) => {
    const at = Number(url.searchParams.get('cursor') ?? '0');
    return { body: `{"zones":[${records([at])}],"next_cursor":${at + 1}}` };
  });
  await expect(clientFor(shop, { ZONES_PAGING: 'cursor' }).listZones()).rejects.toThrow(
    'the list runs past 1000 pages, so it cannot be read whole',
  );
  expect(shop.asked).toHaveLength(1000);
});

test('64-bit ids inside a custom envelope keep every digit, and ids a double would merge stay apart', async () => {
  // 9007199254740993 and 9007199254740992 are one and the same double: a walk that compared ids as
  // numbers would drop the second as a zone already seen.
  const pages: Record<string, string> = {
    first: '{"data":{"items":[{"zone_id":9007199254740993,"name":"a"}],"next":"n"}}',
    n: '{"data":{"items":[{"zone_id":9007199254740992,"name":"b"},{"zone_id":9007199254740995,"name":"c"}],"next":null}}',
  };
  const shop = await scriptedShop((url) => ({ body: pages[url.searchParams.get('cursor') ?? 'first']! }));
  const settings = {
    ZONES_LIST_KEY: 'data.items',
    ZONES_ID_FIELD: 'zone_id',
    ZONES_PAGING: 'cursor',
    ZONES_CURSOR_FIELD: 'data.next',
  };
  expect(idsOf(await clientFor(shop, settings).listZones())).toEqual([
    '9007199254740993',
    '9007199254740992',
    '9007199254740995',
  ]);
});

test('a first list whose pages cannot be followed stops the run with one message naming ZONES_PAGING', async () => {
  const shop = await scriptedShop(() => ({
    body: `{"zones":[${records([1])}],"next_cursor":"https://cdn.example${LIST}"}`,
  }));
  const config = readTargetConfig({ ZONES_BASE_URL: shop.url, ZONES_ACCESS_TOKEN: 't0k3n', ZONES_PAGING: 'cursor' });
  const ledger = new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-paging-')), 'run.jsonl'));
  const run = preflight(new ZonesClient(config, { ledger, resendTimedOutGets: false }), { runId: 'zc-paging-test' });
  await expect(run).rejects.toThrow(CannotRunError);
  await expect(run).rejects.toThrow(
    /cannot be read with ZONES_PAGING=cursor, or with ZONES_BASE_URL \(the shop's own links name another address\): the list's next page is on another host \(https:\/\/cdn\.example\)/,
  );
});
