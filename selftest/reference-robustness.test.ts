// Client mistakes get a 4xx with a JSON body, and the reference keeps answering afterwards.
import { parse } from 'lossless-json';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.ts';

const API = '/admin/api/2026-07';
let ref: RunningReference;
let zoneId: string;

type Auth = 'valid' | 'wrong' | 'missing';

async function call(method: string, path: string, rawBody?: string, auth: Auth = 'valid') {
  const headers: Record<string, string> = {};
  if (auth !== 'missing') headers['X-Shopify-Access-Token'] = auth === 'valid' ? ref.token : `${ref.token}x`;
  const res = await fetch(ref.url + path, { method, headers, body: rawBody });
  const text = await res.text();
  return { status: res.status, text, contentType: res.headers.get('content-type') ?? '' };
}

async function listedNames(): Promise<string[]> {
  const listed = await call('GET', `${API}/zones.json`);
  return (JSON.parse(listed.text).zones as { name: string }[]).map((zone) => zone.name);
}

beforeAll(async () => {
  ref = await startReference({ style: 'default' });
  const created = await call(
    'POST',
    `${API}/zones.json`,
    JSON.stringify({ zone: { name: 'Keeper', coverage: { all: true } } }),
  );
  zoneId = String((parse(created.text) as any).zone.id);
});
afterAll(async () => {
  await ref.close();
});

const zonePath = () => `${API}/zones/${zoneId}.json`;

const badRequests = [
  {
    label: 'invalid JSON on create',
    method: 'POST',
    path: () => `${API}/zones.json`,
    body: '{"zone": {"name": ',
    status: 400,
  },
  { label: 'an empty body on create', method: 'POST', path: () => `${API}/zones.json`, body: '', status: 400 },
  {
    label: 'JSON nested past the limit',
    method: 'POST',
    path: () => `${API}/zones.json`,
    body: '['.repeat(5000) + ']'.repeat(5000),
    status: 400,
  },
  { label: 'a non-object body on create', method: 'POST', path: () => `${API}/zones.json`, body: '[1,2]', status: 422 },
  {
    label: 'a body without the zone envelope',
    method: 'POST',
    path: () => `${API}/zones.json`,
    body: '{"name":"x","coverage":1}',
    status: 422,
  },
  { label: 'a string envelope', method: 'POST', path: () => `${API}/zones.json`, body: '{"zone":"x"}', status: 422 },
  {
    label: 'a numeric name',
    method: 'POST',
    path: () => `${API}/zones.json`,
    body: '{"zone":{"name":5,"coverage":1}}',
    status: 422,
  },
  {
    label: 'a blank name',
    method: 'POST',
    path: () => `${API}/zones.json`,
    body: '{"zone":{"name":"  ","coverage":1}}',
    status: 422,
  },
  {
    label: 'a 256-character name',
    method: 'POST',
    path: () => `${API}/zones.json`,
    body: JSON.stringify({ zone: { name: 'n'.repeat(256), coverage: 1 } }),
    status: 422,
  },
  {
    label: 'a missing coverage',
    method: 'POST',
    path: () => `${API}/zones.json`,
    body: '{"zone":{"name":"x"}}',
    status: 422,
  },
  {
    label: 'an unknown status on update',
    method: 'PUT',
    path: zonePath,
    body: '{"zone":{"status":"gone"}}',
    status: 422,
  },
  { label: 'a non-string status on update', method: 'PUT', path: zonePath, body: '{"zone":{"status":1}}', status: 422 },
  { label: 'a null name on update', method: 'PUT', path: zonePath, body: '{"zone":{"name":null}}', status: 422 },
  { label: 'a non-object body on update', method: 'PUT', path: zonePath, body: '"zone"', status: 422 },
  { label: 'invalid JSON on update', method: 'PUT', path: zonePath, body: '{zone:1}', status: 400 },
  {
    label: 'an update of an unknown id',
    method: 'PUT',
    path: () => `${API}/zones/999999999.json`,
    body: '{"zone":{"name":"x"}}',
    status: 404,
  },
  {
    label: 'a delete of an unknown id',
    method: 'DELETE',
    path: () => `${API}/zones/no-such-zone.json`,
    body: undefined,
    status: 404,
  },
  {
    label: 'an id that differs only by a leading zero',
    method: 'DELETE',
    path: () => `${API}/zones/0${zoneId}.json`,
    body: undefined,
    status: 404,
  },
  {
    label: 'a body over 64 KiB',
    method: 'POST',
    path: () => `${API}/zones.json`,
    body: JSON.stringify({ zone: { name: 'big', coverage: 'x'.repeat(70_000) } }),
    status: 413,
  },
  { label: 'an unknown route', method: 'GET', path: () => `${API}/shops.json`, body: undefined, status: 404 },
  {
    label: 'another API version',
    method: 'GET',
    path: () => '/admin/api/2025-01/zones.json',
    body: undefined,
    status: 404,
  },
  { label: 'the list path without .json', method: 'GET', path: () => `${API}/zones`, body: undefined, status: 404 },
  { label: 'a path outside the API', method: 'GET', path: () => '/', body: undefined, status: 404 },
  { label: 'PATCH on the list route', method: 'PATCH', path: () => `${API}/zones.json`, body: '{}', status: 405 },
  { label: 'GET on a zone route', method: 'GET', path: zonePath, body: undefined, status: 405 },
  {
    label: 'a malformed percent-escape in the id',
    method: 'DELETE',
    path: () => `${API}/zones/%E0%A4%A.json`,
    body: undefined,
    status: 404,
  },
];

test.for(badRequests)('$label is answered $status with a JSON error body', async ({ method, path, body, status }) => {
  const answer = await call(method, path(), body);
  expect(answer.status).toBe(status);
  expect(answer.contentType).toMatch(/^application\/json/);
  expect(JSON.parse(answer.text)).toHaveProperty('errors');
  expect(await listedNames()).toEqual(['Keeper']);
});

test('the reference still answers after every bad request', async () => {
  for (const { method, path, body } of badRequests) await call(method, path(), body);
  const listed = await call('GET', `${API}/zones.json`);
  expect(listed.status).toBe(200);
  expect(await listedNames()).toEqual(['Keeper']);
});

const endpoints = [
  { label: 'GET list', method: 'GET', path: () => `${API}/zones.json`, body: undefined },
  {
    label: 'POST create',
    method: 'POST',
    path: () => `${API}/zones.json`,
    body: '{"zone":{"name":"Intruder","coverage":1}}',
  },
  { label: 'PUT update', method: 'PUT', path: zonePath, body: '{"zone":{"name":"Intruder"}}' },
  { label: 'DELETE', method: 'DELETE', path: zonePath, body: undefined },
];
const credentials: Auth[] = ['missing', 'wrong'];
const authCases = endpoints.flatMap((endpoint) => credentials.map((auth) => ({ ...endpoint, auth })));

test.for(authCases)(
  '$label with a $auth credential is refused 401 without zone data or effect',
  async ({ method, path, body, auth }) => {
    const answer = await call(method, path(), body, auth);
    expect(answer.status).toBe(401);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.text).not.toContain('Keeper');
    expect(JSON.parse(answer.text)).toHaveProperty('errors');
    expect(await listedNames()).toEqual(['Keeper']);
  },
);

test('an unknown route without a credential is refused before it is looked up', async () => {
  expect((await call('GET', `${API}/shops.json`, undefined, 'missing')).status).toBe(401);
});

test('the booking control route answers 404 for an unknown zone', async () => {
  const res = await fetch(`${ref.url}/__reference__/zones/nope/bookings`, { method: 'POST' });
  expect(res.status).toBe(404);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  await res.text();
});

test('a status in the create body is ignored: the new zone is draft', async () => {
  const created = await call(
    'POST',
    `${API}/zones.json`,
    '{"zone":{"name":"Eager","coverage":1,"status":"published","extra":true}}',
  );
  expect(created.status).toBe(201);
  const zone = JSON.parse(created.text).zone;
  expect(zone.status).toBe('draft');
  expect((await call('DELETE', `${API}/zones/${zone.id}.json`)).status).toBe(200);
});

/** A create whose body comes in `chunks` chunks of `size` bytes, each `pause` ms after the one before. */
async function postStreamed(
  chunks: number,
  size: number,
  pause: number,
): Promise<{ res: Response; sent: () => number }> {
  const chunk = new TextEncoder().encode(' '.repeat(size));
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (pause > 0) await new Promise((resolve) => setTimeout(resolve, pause));
      if (sent < chunks) {
        sent += 1;
        controller.enqueue(chunk);
      } else controller.close();
    },
  });
  const res = await fetch(`${ref.url}${API}/zones.json`, {
    method: 'POST',
    headers: { 'X-Shopify-Access-Token': ref.token },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  return { res, sent: () => sent };
}

test('a streamed body that grows past 64 KiB is cut off with 413', async () => {
  const { res } = await postStreamed(8, 16 * 1024, 0);
  expect(res.status).toBe(413);
  expect(JSON.parse(await res.text())).toHaveProperty('errors');
  expect(await listedNames()).toEqual(['Keeper']);
});

test('a body over the limit is read to its end and dropped before the 413, so a client still sending gets the answer', async () => {
  // Sent slowly: a reference that answered at 64 KiB and closed would break the client's send instead.
  const { res, sent } = await postStreamed(24, 64 * 1024, 5);
  expect(res.status).toBe(413);
  // The answer came once the whole body was sent.
  expect(sent()).toBe(24);
  expect(await listedNames()).toEqual(['Keeper']);
});
