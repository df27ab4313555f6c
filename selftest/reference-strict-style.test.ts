// The strict-shop style is correct but unhelpful where the specification is silent: a create answers
// with no body, PUT replaces the whole zone, and archived is reached only through published.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.ts';

let ref: RunningReference;
beforeAll(async () => {
  ref = await startReference({ style: 'strict-shop' });
});
afterAll(() => ref.close());

const API = '/admin/api/2026-07';
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(ref.url + API + path, {
    method,
    headers: { authorization: `Bearer ${ref.token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify({ zone: body }),
  });
  return { status: res.status, text: await res.text() };
}

async function createOne(name: string): Promise<string> {
  const created = await call('POST', '/zones.json', { name, coverage: { countries: ['DE'] } });
  expect([created.status, created.text]).toEqual([201, '']);
  const listed = await call('GET', '/zones.json');
  const id = new RegExp(`"id":(\\d+),"name":"${name}"`).exec(listed.text)?.[1];
  expect(id).toBeDefined();
  return id!;
}

test('a create answers 201 with no body, and the zone is in the list', async () => {
  await createOne('strict-a');
});

test('a PUT that leaves out a field is refused; a full one is taken', async () => {
  const id = await createOne('strict-b');
  expect((await call('PUT', `/zones/${id}.json`, { name: 'renamed' })).status).toBe(422);
  expect((await call('PUT', `/zones/${id}.json`, { name: 'renamed', coverage: {}, status: 'draft' })).status).toBe(200);
});

test('archived is reached from draft only through published', async () => {
  const id = await createOne('strict-c');
  const full = (status: string) => ({ name: 'strict-c', coverage: {}, status });
  expect((await call('PUT', `/zones/${id}.json`, full('archived'))).status).toBe(422);
  expect((await call('PUT', `/zones/${id}.json`, full('published'))).status).toBe(200);
  expect((await call('PUT', `/zones/${id}.json`, full('archived'))).status).toBe(200);
});
