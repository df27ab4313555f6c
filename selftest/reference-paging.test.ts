// The reference's paging styles serve what they announce: page-numbers splits lists by ?page=N,
// data-envelope by a cursor in {"data":[...],"meta":{"next_cursor":...}}. A page number or cursor it
// cannot read gets a 400 with a JSON body, never a crash and never a quiet first page.
import { parse, stringify } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.ts';

const LIST = '/admin/api/2026-07/zones.json';
const zonePath = (id: string) => `/admin/api/2026-07/zones/${id}.json`;

let pageNumbers: RunningReference;
let dataEnvelope: RunningReference;

beforeAll(async () => {
  [pageNumbers, dataEnvelope] = await Promise.all([
    startReference({ style: 'page-numbers' }),
    startReference({ style: 'data-envelope' }),
  ]);
});
afterAll(async () => {
  await Promise.all([pageNumbers.close(), dataEnvelope.close()]);
});

async function call(ref: RunningReference, method: string, path: string, body?: unknown) {
  const { authHeader, authScheme } = ref.style;
  const headers: Record<string, string> = { [authHeader]: authScheme ? `${authScheme} ${ref.token}` : ref.token };
  const res = await fetch(ref.url + path, { method, headers, body: body === undefined ? undefined : stringify(body) });
  const text = await res.text();
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    link: res.headers.get('link'),
    json: (text ? parse(text) : undefined) as any,
  };
}

async function createZones(
  ref: RunningReference,
  names: string[],
  wrap: (fields: object) => object,
): Promise<string[]> {
  const ids: string[] = [];
  for (const name of names) {
    const created = await call(ref, 'POST', LIST, wrap({ name, coverage: {} }));
    expect(created.status, stringify(created.json)).toBe(201);
    const record = ref.style.envelope === 'bare' ? created.json : created.json.data;
    ids.push(String(record.id));
  }
  return ids;
}

const removeAll = async (ref: RunningReference, ids: string[]) => {
  for (const id of ids) expect((await call(ref, 'DELETE', zonePath(id))).status).toBe(200);
};

describe('page-numbers', () => {
  test('lists come two zones a page by ?page=N, in creation order, with no Link header, and empty past the end', async () => {
    const ids = await createZones(pageNumbers, ['a', 'b', 'c', 'd', 'e'], (fields) => fields);
    const pageIds = async (query: string) => {
      const page = await call(pageNumbers, 'GET', LIST + query);
      expect([page.status, page.link]).toEqual([200, null]);
      return (page.json as { id: unknown }[]).map((record) => String(record.id));
    };
    expect(await pageIds('')).toEqual(ids.slice(0, 2));
    expect(await pageIds('?page=1')).toEqual(ids.slice(0, 2));
    expect(await pageIds('?page=2')).toEqual(ids.slice(2, 4));
    expect(await pageIds('?page=3')).toEqual(ids.slice(4));
    expect(await pageIds('?page=4')).toEqual([]);
    await removeAll(pageNumbers, ids);
  });

  test('the filter applies before the pages are cut', async () => {
    const ids = await createZones(pageNumbers, ['f1', 'f2', 'f3', 'f4'], (fields) => fields);
    expect((await call(pageNumbers, 'PUT', zonePath(ids[0]!), { status: 'published' })).status).toBe(200);
    const drafts = await call(pageNumbers, 'GET', `${LIST}?status=draft&page=2`);
    expect((drafts.json as { id: unknown }[]).map((record) => String(record.id))).toEqual([ids[3]]);
    await removeAll(pageNumbers, ids);
  });

  test.for(['0', '-1', 'two', '1.5', '1e2', '９', '12345678901'])(
    '?page=%s is refused with 400 and a JSON error',
    async (page) => {
      const answer = await call(pageNumbers, 'GET', `${LIST}?page=${encodeURIComponent(page)}`);
      expect([answer.status, answer.contentType]).toEqual([400, 'application/json; charset=utf-8']);
      expect(answer.json.errors).toContain('page must be a whole number from 1');
      expect((await call(pageNumbers, 'GET', LIST)).status).toBe(200);
    },
  );
});

describe('data-envelope', () => {
  const wrap = (fields: object) => ({ data: fields });

  /** Every page, following meta.next_cursor; the cursors seen, and each page's ids. */
  async function walk(query = ''): Promise<{ pages: string[][]; cursors: unknown[] }> {
    const pages: string[][] = [];
    const cursors: unknown[] = [];
    let path: string | undefined = LIST + query;
    while (path !== undefined && pages.length < 10) {
      const page = await call(dataEnvelope, 'GET', path);
      expect(page.status).toBe(200);
      pages.push((page.json.data as { id: unknown }[]).map((record) => String(record.id)));
      const cursor = page.json.meta.next_cursor;
      cursors.push(cursor);
      path = cursor === null ? undefined : `${LIST}${query ? `${query}&` : '?'}cursor=${encodeURIComponent(cursor)}`;
    }
    return { pages, cursors };
  }

  test('one zone answers as {"data":{...}} with an id beyond 2^53, and a request body goes in "data" too', async () => {
    const created = await call(dataEnvelope, 'POST', LIST, wrap({ name: 'Wrapped', coverage: {} }));
    expect(created.status).toBe(201);
    const id = String(created.json.data.id);
    expect(BigInt(id) > 2n ** 53n).toBe(true);
    const updated = await call(dataEnvelope, 'PUT', zonePath(id), wrap({ name: 'Renamed' }));
    expect([updated.status, updated.json.data.name, String(updated.json.data.id)]).toEqual([200, 'Renamed', id]);
    const misplaced = await call(dataEnvelope, 'PUT', zonePath(id), { zone: { name: 'Lost' } });
    expect([misplaced.status, misplaced.json.errors]).toEqual([422, { data: ['is required: send {"data": {...}}'] }]);
    await removeAll(dataEnvelope, [id]);
  });

  test('a list comes two zones a page, each naming the next in meta.next_cursor, and null on the last', async () => {
    const ids = await createZones(dataEnvelope, ['a', 'b', 'c', 'd', 'e'], wrap);
    const { pages, cursors } = await walk();
    expect(pages).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    expect(cursors.map((cursor) => typeof cursor)).toEqual(['string', 'string', 'object']);
    await removeAll(dataEnvelope, ids);
  });

  test('the filter applies before the pages are cut, and the cursor keeps to it', async () => {
    const ids = await createZones(dataEnvelope, ['f1', 'f2', 'f3', 'f4'], wrap);
    expect((await call(dataEnvelope, 'PUT', zonePath(ids[1]!), wrap({ status: 'live' }))).status).toBe(200);
    expect((await walk('?status=draft')).pages).toEqual([[ids[0], ids[2]], [ids[3]]]);
    await removeAll(dataEnvelope, ids);
  });

  test('a zone deleted between two pages makes no other zone slip through', async () => {
    const ids = await createZones(dataEnvelope, ['k1', 'k2', 'k3', 'k4', 'k5'], wrap);
    const first = await call(dataEnvelope, 'GET', LIST);
    await removeAll(dataEnvelope, [ids[0]!]);
    const second = await call(dataEnvelope, 'GET', `${LIST}?cursor=${first.json.meta.next_cursor}`);
    expect((second.json.data as { id: unknown }[]).map((record) => String(record.id))).toEqual(ids.slice(2, 4));
    await removeAll(dataEnvelope, ids.slice(1));
  });

  test.for([
    'garbage',
    Buffer.from('after:x').toString('base64url'),
    Buffer.from('offset:2').toString('base64url'),
    `${Buffer.from('after:1').toString('base64url')}!`,
  ])('?cursor=%s is refused with 400 and a JSON error', async (cursor) => {
    const answer = await call(dataEnvelope, 'GET', `${LIST}?cursor=${encodeURIComponent(cursor)}`);
    expect([answer.status, answer.contentType]).toEqual([400, 'application/json; charset=utf-8']);
    expect(answer.json.errors).toContain('cursor is not a cursor this shop gave out');
    expect((await call(dataEnvelope, 'GET', LIST)).status).toBe(200);
  });
});
