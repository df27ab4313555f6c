// The reference answers the whole zone lifecycle in every house style, ids and coverage intact.
import { isLosslessNumber, parse, stringify } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { putAtPath, valueAtPath } from '../reference/dotted-path.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { houseStyles, listKeyOf, zoneKeyOf } from '../reference/styles.ts';

const API = '/admin/api/2026-07';
// The strict, other-codes and schema-checked styles' own manners (no create body, full PUTs, limited
// moves, other codes, a coverage schema) have files of their own.
const styleNames = Object.keys(houseStyles).filter((name) => {
  const style = houseStyles[name]!;
  return !style.putReplaces && style.createAnswer !== 'empty' && !style.moves && !style.codes && !style.coverageSchema;
});
const servers = new Map<string, RunningReference>();

beforeAll(async () => {
  for (const name of styleNames) servers.set(name, await startReference({ style: name }));
});
afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.close()));
});

interface Exchange {
  status: number;
  text: string;
  json: any;
}

async function call(ref: RunningReference, method: string, path: string, body?: unknown): Promise<Exchange> {
  const { authHeader, authScheme } = ref.style;
  const headers: Record<string, string> = { [authHeader]: authScheme ? `${authScheme} ${ref.token}` : ref.token };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(ref.url + path, { method, headers, body: body === undefined ? undefined : stringify(body) });
  const text = await res.text();
  return { status: res.status, text, json: parse(text) };
}

const one = (ref: RunningReference, json: any) =>
  (ref.style.envelope === 'wrapped' ? valueAtPath(json, zoneKeyOf(ref.style)) : json) as any;
// The first page only: these zones are few, and paging itself is proven in reference-paging.test.ts.
const many = (ref: RunningReference, json: any) =>
  (ref.style.envelope === 'wrapped' ? valueAtPath(json, listKeyOf(ref.style)) : json) as any[];
function send(ref: RunningReference, fields: object): object {
  if (ref.style.envelope === 'bare') return fields;
  const body = {};
  putAtPath(body, zoneKeyOf(ref.style), fields);
  return body;
}
const idOf = (ref: RunningReference, record: any): string => String(record[ref.style.idField]);

async function listIds(ref: RunningReference, status?: string): Promise<string[]> {
  const query = status === undefined ? '' : `?${ref.style.statusParam}=${encodeURIComponent(status)}`;
  const listed = await call(ref, 'GET', `${API}/zones.json${query}`);
  expect(listed.status).toBe(200);
  return many(ref, listed.json).map((record) => idOf(ref, record));
}

describe.for(styleNames)('style %s', (styleName) => {
  const ref = () => servers.get(styleName)!;

  test('a zone goes through create, list, filter, update and delete', async () => {
    const { style } = ref();
    const [draft, other] = [style.statuses[0]!, style.statuses.at(-1)!];
    const created = await call(
      ref(),
      'POST',
      `${API}/zones.json`,
      send(ref(), { name: 'North', coverage: { countries: ['DE'] }, status: other }),
    );
    expect(created.status).toBe(201);
    const zone = one(ref(), created.json);
    expect(zone).toMatchObject({ name: 'North', coverage: { countries: ['DE'] }, status: draft });
    const id = idOf(ref(), zone);
    expect(await listIds(ref())).toContain(id);
    expect(await listIds(ref(), draft)).toContain(id);
    expect(await listIds(ref(), other)).not.toContain(id);

    const updated = await call(
      ref(),
      'PUT',
      `${API}/zones/${id}.json`,
      send(ref(), { name: 'South', coverage: [1, 2], status: other }),
    );
    expect(updated.status).toBe(200);
    expect(one(ref(), updated.json)).toMatchObject({ name: 'South', status: other });
    expect(await listIds(ref(), other)).toContain(id);
    expect(await listIds(ref(), draft)).not.toContain(id);

    const booked = await fetch(`${ref().url}/__reference__/zones/${id}/bookings`, { method: 'POST' });
    expect(booked.status).toBe(201);
    const refused = await call(ref(), 'DELETE', `${API}/zones/${id}.json`);
    expect(refused.status).toBe(422);
    expect(refused.json.errors).toBeDefined();
    expect(await listIds(ref())).toContain(id);

    expect((await fetch(`${ref().url}/__reference__/zones/${id}/bookings`, { method: 'DELETE' })).status).toBe(200);
    const deleted = await call(ref(), 'DELETE', `${API}/zones/${id}.json`);
    expect(deleted.status).toBe(200);
    expect(await listIds(ref())).not.toContain(id);
    expect((await call(ref(), 'PUT', `${API}/zones/${id}.json`, send(ref(), { name: 'Back' }))).status).toBe(404);
    expect((await call(ref(), 'DELETE', `${API}/zones/${id}.json`)).status).toBe(404);
  });

  test('coverage comes back exactly as sent, big and precise numbers included', async () => {
    const coverageText =
      '{"n":123456789012345678901234567890,"small":-0.000000000000000000001,"f":1.50,"list":[true,null,"x"]}';
    const fields = `{"name":"Exact","coverage":${coverageText}}`;
    // Written as text, not built from objects, so no number passes through a JS double on the way out.
    const wrapIn = (key: string, inner: string) => `{${JSON.stringify(key)}:${inner}}`;
    const body =
      ref().style.envelope === 'wrapped'
        ? zoneKeyOf(ref().style)
            .split('.')
            .reduceRight((inner, key) => wrapIn(key, inner), fields)
        : fields;
    const res = await fetch(`${ref().url}${API}/zones.json`, {
      method: 'POST',
      headers: {
        [ref().style.authHeader]: ref().style.authScheme ? `${ref().style.authScheme} ${ref().token}` : ref().token,
      },
      body,
    });
    expect(res.status).toBe(201);
    expect(await res.text()).toContain(`"coverage":${coverageText}`);
    const listed = await call(ref(), 'GET', `${API}/zones.json`);
    expect(listed.text).toContain(`"coverage":${coverageText}`);
  });
});

test('big-ids ids are integers above 2^53 written as exact unquoted digits', async () => {
  const ref = servers.get('big-ids')!;
  const created = await call(ref, 'POST', `${API}/zones.json`, send(ref, { name: 'Big', coverage: {} }));
  const id = one(ref, created.json).zone_id;
  expect(isLosslessNumber(id)).toBe(true);
  const digits = String(id);
  expect(BigInt(digits) > 2n ** 53n).toBe(true);
  expect(created.text).toContain(`"zone_id":${digits},`);

  const updated = await call(ref, 'PUT', `${API}/zones/${digits}.json`, { zone: { name: 'Bigger' } });
  expect(updated.status).toBe(200);
  expect(updated.text).toContain(`"zone_id":${digits},`);
  const rounded = String(Number(digits));
  if (rounded !== digits)
    expect((await call(ref, 'PUT', `${API}/zones/${rounded}.json`, { zone: { name: 'Wrong' } })).status).toBe(404);
});

test('token-scheme ids are UUIDs and bearer-bare ids are opaque strings', async () => {
  const uuidRef = servers.get('token-scheme')!;
  const uuidZone = await call(uuidRef, 'POST', `${API}/zones.json`, { name: 'U', coverage: 1 });
  expect(uuidZone.json.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  const bareRef = servers.get('bearer-bare')!;
  const bareZone = await call(bareRef, 'POST', `${API}/zones.json`, { name: 'B', coverage: 1 });
  expect(bareZone.json.id).toMatch(/^zn_[a-z0-9]{6}$/);
});

test('zones are listed in creation order', async () => {
  const ref = servers.get('default')!;
  const ids: string[] = [];
  for (const name of ['first', 'second', 'third']) {
    ids.push(
      idOf(ref, one(ref, (await call(ref, 'POST', `${API}/zones.json`, send(ref, { name, coverage: null }))).json)),
    );
  }
  const listed = await listIds(ref);
  expect(listed.filter((id) => ids.includes(id))).toEqual(ids);
});
