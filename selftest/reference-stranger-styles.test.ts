// The styles that copy what third-party mock servers do: fake-rest hands a deleted id to the next
// create, schema-checked refuses any coverage its own schema does not describe. The gallery proves
// the suite certifies both through settings alone; this file proves the reference really does this.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.ts';

const API = '/admin/api/2026-07';
let fakeRest: RunningReference;
let schemaChecked: RunningReference;

beforeAll(async () => {
  fakeRest = await startReference({ style: 'fake-rest' });
  schemaChecked = await startReference({ style: 'schema-checked' });
});
afterAll(async () => {
  await fakeRest.close();
  await schemaChecked.close();
});

function call(ref: RunningReference, method: string, path: string, body?: unknown): Promise<Response> {
  const { authHeader, authScheme } = ref.style;
  const headers: Record<string, string> = {
    [authHeader]: authScheme ? `${authScheme} ${ref.token}` : ref.token,
    'content-type': 'application/json',
  };
  return fetch(ref.url + API + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}

test('fake-rest gives ids from 1 as the highest held plus one, so a deleted newest id comes back', async () => {
  const create = async () =>
    ((await (await call(fakeRest, 'POST', '/zones.json', { name: 'z', coverage: {} })).json()) as { id: number }).id;
  const first = await create();
  const second = await create();
  expect([first, second]).toEqual([1, 2]);
  expect((await call(fakeRest, 'DELETE', `/zones/${second}.json`)).status).toBe(200);
  expect(await create()).toBe(second);
  expect((await call(fakeRest, 'DELETE', `/zones/${first}.json`)).status).toBe(200);
  expect(await create()).toBe(3);
});

test.for([
  [{ countries: ['DE'] }],
  [{ regions: [] }],
  [{ regions: ['EU'], countries: ['DE'] }],
  [{ regions: [1] }],
  [['EU']],
])('schema-checked refuses the coverage %j with 422 naming the schema', async ([coverage]) => {
  const created = await call(schemaChecked, 'POST', '/zones.json', { zone: { name: 'z', coverage } });
  expect(created.status).toBe(422);
  expect(JSON.stringify(await created.json())).toContain('regions');
});

test('schema-checked takes coverage of its own shape, on create and update, and filters by filter[status]', async () => {
  const created = await call(schemaChecked, 'POST', '/zones.json', {
    zone: { name: 'z', coverage: { regions: ['EU'] } },
  });
  expect(created.status).toBe(201);
  const { zone } = (await created.json()) as { zone: { id: string } };
  expect(
    (await call(schemaChecked, 'PUT', `/zones/${zone.id}.json`, { zone: { coverage: { countries: ['DE'] } } })).status,
  ).toBe(422);
  expect(
    (
      await call(schemaChecked, 'PUT', `/zones/${zone.id}.json`, {
        zone: { coverage: { regions: ['US'] }, status: 'enabled' },
      })
    ).status,
  ).toBe(200);
  const enabled = (await (
    await call(schemaChecked, 'GET', `/zones.json?${encodeURIComponent('filter[status]')}=enabled`)
  ).json()) as { zones: { id: string }[] };
  const drafts = (await (
    await call(schemaChecked, 'GET', `/zones.json?${encodeURIComponent('filter[status]')}=draft`)
  ).json()) as { zones: { id: string }[] };
  expect([enabled.zones.map((z) => z.id), drafts.zones.map((z) => z.id)]).toEqual([[zone.id], []]);
});

test('schema-checked deletes idempotently: a zone already gone answers 204 again', async () => {
  const created = await call(schemaChecked, 'POST', '/zones.json', {
    zone: { name: 'z', coverage: { regions: ['EU'] } },
  });
  const { zone } = (await created.json()) as { zone: { id: string } };
  expect((await call(schemaChecked, 'DELETE', `/zones/${zone.id}.json`)).status).toBe(200);
  expect((await call(schemaChecked, 'DELETE', `/zones/${zone.id}.json`)).status).toBe(204);
  expect((await call(schemaChecked, 'PUT', `/zones/${zone.id}.json`, { zone: { name: 'back?' } })).status).toBe(404);
});
