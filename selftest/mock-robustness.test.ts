// Bad requests to the mock in a style made from a profile: each is answered 4xx with a JSON error body in
// the profile's spelling (its error key, content type and codes), changes nothing, and the mock keeps
// answering. The reference's own robustness tests (reference-robustness.test.ts) do the same in its default style.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { styleFromProfile } from '../bin/reference-settings.ts';
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

test.for(BAD)(
  '%s is answered %4$i… with the profile’s error body, and changes nothing',
  async ([, method, path, body, status]) => {
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
