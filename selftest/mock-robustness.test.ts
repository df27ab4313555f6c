// Bad requests to the mock in a style made from a profile: each is answered 4xx with a JSON error body in
// the profile's spelling (its error key, content type and codes), changes nothing, and the mock keeps
// answering. The reference's own robustness tests (reference-robustness.test.ts) do the same in its default style.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { styleFromProfile } from '../bin/reference-settings.ts';
import { createBucket } from '../reference/rate-limit.ts';
import { type RunningReference, startReference } from '../reference/server.ts';

const PROFILE = {
  auth_header: 'X-Api-Key',
  statuses: ['draft', 'live'],
  envelope: 'wrapped',
  zone_key: 'data',
  list_key: 'data',
  id_field: 'uid',
  mock: { unauthenticated: 403, invalid: 400, error_key: 'message', content_type: 'application/vnd.shop+json' },
};
const API = '/admin/api/2026-07';
let mock: RunningReference;
let keeper: string;

function call(method: string, path: string, body?: string, key: string | null = mock.token) {
  return fetch(`${mock.url}${path}`, { method, headers: key === null ? {} : { 'X-Api-Key': key }, body });
}

async function listed(): Promise<string[]> {
  const answer = (await (await call('GET', `${API}/zones.json`)).json()) as { data: { name: string }[] };
  return answer.data.map((zone) => zone.name);
}

beforeAll(async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'zc-mock-robust-')), 'profile.json');
  writeFileSync(path, JSON.stringify(PROFILE));
  mock = await startReference({ style: styleFromProfile(path) });
  const created = await call('POST', `${API}/zones.json`, JSON.stringify({ data: { name: 'Keeper', coverage: 1 } }));
  keeper = String(((await created.json()) as { data: { uid: number } }).data.uid);
});
afterAll(() => mock.close());

const create = `${API}/zones.json`;
const BAD: [label: string, method: string, path: () => string, body: string | undefined, status: number][] = [
  ['invalid JSON', 'POST', () => create, '{"data": {"name": ', 400],
  ['an empty body', 'POST', () => create, '', 400],
  ['JSON nested past the limit', 'POST', () => create, `${'['.repeat(5000)}${']'.repeat(5000)}`, 400],
  ['a body outside the envelope', 'POST', () => create, '{"name":"x","coverage":1}', 400],
  ['a numeric name', 'POST', () => create, '{"data":{"name":5,"coverage":1}}', 400],
  ['a missing coverage', 'POST', () => create, '{"data":{"name":"x"}}', 400],
  ['an unknown status on update', 'PUT', () => `${API}/zones/${keeper}.json`, '{"data":{"status":"gone"}}', 400],
  [
    'a body over 64 KiB',
    'POST',
    () => create,
    JSON.stringify({ data: { name: 'b', coverage: 'x'.repeat(70_000) } }),
    413,
  ],
  ['an unknown id', 'DELETE', () => `${API}/zones/no-such-zone.json`, undefined, 404],
  ['a malformed percent-escape', 'DELETE', () => `${API}/zones/%E0%A4%A.json`, undefined, 404],
  ['an unknown route', 'GET', () => `${API}/shops.json`, undefined, 404],
  ['PATCH on the list', 'PATCH', () => create, '{}', 405],
];

const CASES = BAD.map(([label, method, path, body, status]) => ({ label, method, path, body, status }));

test.for(CASES)(
  '$label is answered $status with the profile’s error body, and changes nothing',
  async ({ method, path, body, status }) => {
    const answer = await call(method, path(), body);
    expect(answer.status).toBe(status);
    expect(answer.headers.get('content-type')).toBe('application/vnd.shop+json');
    expect(await answer.json()).toHaveProperty('message');
    expect(await listed()).toEqual(['Keeper']);
  },
);

test.for(['missing', 'wrong'])('a %s credential is refused 403, with no zone data', async (credential) => {
  const answer = await call('GET', `${API}/zones.json`, undefined, credential === 'missing' ? null : 'nope');
  expect(answer.status).toBe(403);
  const text = await answer.text();
  expect(text).not.toContain('Keeper');
  expect(JSON.parse(text)).toHaveProperty('message');
});

test('the mock still answers after every bad request', async () => {
  for (const [, method, path, body] of BAD) await call(method, path(), body);
  expect(await listed()).toEqual(['Keeper']);
});

test("a profile's rate-limit bucket lets its burst through, then names the wait in whole seconds, and its room comes back with time", () => {
  let now = 0;
  const bucket = createBucket({ burst: 2, perSecond: 1 }, () => now);
  expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([undefined, undefined, 1]);
  now += 1000;
  expect([bucket.take(), bucket.take()]).toEqual([undefined, 1]);
});

test("the profile's API version, extra fields and rate limit shape what the mock answers", async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'zc-mock-shape-')), 'profile.json');
  const mockSection = {
    extra_fields: { gid: 'gid://shop/Zone/{id}', synced_at: '{now}' },
    rate_limit: { burst: 2, per_second: 0.05 },
  };
  writeFileSync(path, JSON.stringify({ api_version: '2025-10', mock: mockSection }));
  const shaped = await startReference({ style: styleFromProfile(path) });
  const ask = (version: string) =>
    fetch(`${shaped.url}/admin/api/${version}/zones.json`, {
      method: 'POST',
      headers: { 'X-Shopify-Access-Token': shaped.token },
      body: JSON.stringify({ zone: { name: 'shaped', coverage: {} } }),
    });
  try {
    const created = await ask('2025-10');
    expect(created.status).toBe(201);
    const { zone } = (await created.json()) as { zone: { id: number; gid: string; synced_at: string } };
    expect(zone.gid).toBe(`gid://shop/Zone/${zone.id}`);
    expect(Date.parse(zone.synced_at)).not.toBeNaN();
    // The documented version's path is not the profile's: 404, and the bucket's second request spent.
    expect((await ask('2026-07')).status).toBe(404);
    const limited = await ask('2025-10');
    expect(limited.status).toBe(429);
    // A request's room comes back in 20 s: whole seconds, however slow the machine was meanwhile.
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(20);
    expect(await limited.json()).toHaveProperty('errors');
  } finally {
    await shaped.close();
  }
});
