// The other-codes style is correct but answers with other codes than the profile wherever the
// specification shows none: 200 for a create, 204 for a delete, 403 without a valid credential, 409
// for a booked zone; archived is reached from draft only through active, and a zone cannot be "moved"
// to the status it already has. A create must name a currency.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.ts';

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference({ style: 'other-codes' });
});
afterAll(() => ref.close());

const API = '/admin/api/2026-07';
async function call(method: string, path: string, body?: unknown, token: string | null = ref.token) {
  const res = await fetch(ref.url + API + path, {
    method,
    headers: { ...(token === null ? {} : { 'x-auth-token': token }), 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify({ zone: body }),
  });
  const text = await res.text();
  return { status: res.status, text, json: text === '' ? undefined : JSON.parse(text) };
}

test('a create answers 200 with the zone, in draft, under zone_id', async () => {
  const created = await call('POST', '/zones.json', { name: 'oc-a', coverage: { countries: ['DE'] }, currency: 'EUR' });
  expect(created.status).toBe(200);
  expect(created.json.zone).toMatchObject({ zone_id: expect.stringMatching(/^zn_/), name: 'oc-a', status: 'draft' });
});

test('a missing or wrong credential is refused with 403 on every endpoint', async () => {
  for (const token of [null, 'not-the-token']) {
    expect((await call('GET', '/zones.json', undefined, token)).status).toBe(403);
    expect((await call('POST', '/zones.json', { name: 'oc-ghost', coverage: 1 }, token)).status).toBe(403);
    expect((await call('PUT', '/zones/zn_none.json', { name: 'x' }, token)).status).toBe(403);
    expect((await call('DELETE', '/zones/zn_none.json', undefined, token)).status).toBe(403);
  }
});

test('archived is reached from draft only through active', async () => {
  const id = (await call('POST', '/zones.json', { name: 'oc-b', coverage: {}, currency: 'EUR' })).json.zone
    .zone_id as string;
  expect((await call('PUT', `/zones/${id}.json`, { status: 'archived' })).status).toBe(422);
  expect((await call('PUT', `/zones/${id}.json`, { status: 'active' })).status).toBe(200);
  expect((await call('PUT', `/zones/${id}.json`, { status: 'archived' })).status).toBe(200);
});

test('a booked zone is refused with 409; a free one is deleted with an empty 204', async () => {
  const id = (await call('POST', '/zones.json', { name: 'oc-c', coverage: {}, currency: 'EUR' })).json.zone
    .zone_id as string;
  await fetch(`${ref.url}/__reference__/zones/${id}/bookings`, { method: 'POST' });
  expect((await call('DELETE', `/zones/${id}.json`)).status).toBe(409);
  await fetch(`${ref.url}/__reference__/zones/${id}/bookings`, { method: 'DELETE' });
  const deleted = await call('DELETE', `/zones/${id}.json`);
  expect([deleted.status, deleted.text]).toEqual([204, '']);
  expect((await call('DELETE', `/zones/${id}.json`)).status).toBe(404);
});

test('a PUT that repeats the current status is refused; the same change without it is taken', async () => {
  const id = (await call('POST', '/zones.json', { name: 'oc-d', coverage: {}, currency: 'EUR' })).json.zone
    .zone_id as string;
  expect((await call('PUT', `/zones/${id}.json`, { name: 'oc-d2', status: 'draft' })).status).toBe(422);
  expect((await call('PUT', `/zones/${id}.json`, { name: 'oc-d2' })).status).toBe(200);
});

test('a create without a currency is refused with 422', async () => {
  const refused = await call('POST', '/zones.json', { name: 'oc-e', coverage: {} });
  expect([refused.status, refused.json]).toEqual([422, { errors: { currency: ['is required'] } }]);
});
