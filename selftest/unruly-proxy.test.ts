// The unruly proxy misbehaves exactly as announced, so a self-test that leans on it proves the suite,
// not the proxy.

import { parse, stringify } from 'lossless-json';
import { afterEach, expect, onTestFinished, test, vi } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.ts';
import { startUnrulyProxy, type UnrulyOptions } from './support/unruly-proxy.ts';

const API = '/admin/api/2026-07';
const LIST = `${API}/zones.json`;

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()));
});

async function startBehindProxy(options: Omit<UnrulyOptions, 'upstream' | 'envelope'> = {}, style = 'default') {
  const ref = await startReference({ style });
  running.push(ref);
  const proxy = await startUnrulyProxy({ ...options, upstream: ref.url, envelope: ref.style.envelope });
  running.push(proxy);
  return { ref, proxy };
}

interface Exchange {
  status: number;
  headers: Headers;
  json: any;
}

async function call(
  ref: RunningReference,
  base: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Exchange> {
  const { authHeader, authScheme } = ref.style;
  const headers: Record<string, string> = { [authHeader]: authScheme ? `${authScheme} ${ref.token}` : ref.token };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : stringify(body) });
  const text = await res.text();
  // Lossless, so the big-ids style proves the proxy keeps ids above 2^53 intact.
  return { status: res.status, headers: res.headers, json: text ? parse(text) : undefined };
}

const wrap = (ref: RunningReference, fields: object) => (ref.style.envelope === 'wrapped' ? { zone: fields } : fields);
const one = (ref: RunningReference, json: any) => (ref.style.envelope === 'wrapped' ? json.zone : json);
const idsIn = (ref: RunningReference, json: any): string[] =>
  (ref.style.envelope === 'wrapped' ? json.zones : json).map((zone: any) => String(zone[ref.style.idField]));

async function createZone(ref: RunningReference, base: string, name: string): Promise<string> {
  const created = await call(ref, base, 'POST', LIST, wrap(ref, { name, coverage: {} }));
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  return String(one(ref, created.json)[ref.style.idField]);
}

async function listIds(ref: RunningReference, base: string, query = ''): Promise<string[]> {
  const listed = await call(ref, base, 'GET', LIST + query);
  expect(listed.status).toBe(200);
  return idsIn(ref, listed.json);
}

/**
 * The proxy's clock (its bucket, its lag) is Date.now: faked and still, it moves only when the test
 * moves it, so a window is waited out in no time and no request lands early or late by the machine's pace.
 */
function stillClock(): { pass(ms: number): void } {
  vi.useFakeTimers({ toFake: ['Date'] });
  onTestFinished(() => void vi.useRealTimers());
  return { pass: (ms) => vi.setSystemTime(Date.now() + ms) };
}

test('the rate limit answers 429 with a fractional Retry-After and counts only early retries as violations', async () => {
  const clock = stillClock();
  const { ref, proxy } = await startBehindProxy({ rateLimit: { perSecond: 1, burst: 2 } });
  const list = () => call(ref, proxy.url, 'GET', LIST);
  expect((await list()).status).toBe(200);
  expect((await list()).status).toBe(200);

  // A quarter of a second after the bucket ran dry, three quarters of a token are still to come.
  clock.pass(250);
  const throttled = await list();
  expect(throttled.status).toBe(429);
  expect(throttled.json.errors).toMatch(/calls per second/);
  expect(throttled.headers.get('retry-after')).toBe('0.750');
  expect(proxy.violations).toBe(0);

  expect((await list()).status).toBe(429);
  expect(proxy.violations).toBe(1);

  clock.pass(750 + 20);
  expect((await list()).status).toBe(200);
  expect({ violations: proxy.violations, throttled: proxy.throttled }).toEqual({ violations: 1, throttled: 2 });
});

test.for([
  { form: 'ietf', fill: (h: Headers) => `${h.get('ratelimit-remaining')} left, reset ${h.get('ratelimit-reset')}` },
  { form: 'ietf-combined', fill: (h: Headers) => h.get('ratelimit') ?? '' },
  { form: 'shopify', fill: (h: Headers) => h.get('x-shopify-shop-api-call-limit') ?? '' },
] as const)('the rate limit is announced in $form headers, on the 429 too', async ({ form, fill }) => {
  const { ref, proxy } = await startBehindProxy({ rateLimit: { perSecond: 1, burst: 2 }, rateLimitHeaders: form });
  const fills: string[] = [];
  for (let i = 0; i < 3; i += 1) fills.push(fill((await call(ref, proxy.url, 'GET', LIST)).headers));
  expect(proxy.throttled).toBe(1);
  expect(fills).toEqual(
    {
      ietf: ['1 left, reset 1', '0 left, reset 1', '0 left, reset 1'],
      'ietf-combined': [
        'limit=2, remaining=1, reset=1',
        'limit=2, remaining=0, reset=1',
        'limit=2, remaining=0, reset=1',
      ],
      shopify: ['1/2', '2/2', '2/2'],
    }[form],
  );
});

test('dropped list requests lose their connection and later ones are answered', async () => {
  const { ref, proxy } = await startBehindProxy({ dropGets: 2 });
  // Writes are never dropped: only list GETs count towards dropGets.
  const id = await createZone(ref, proxy.url, 'survivor');

  await expect(call(ref, proxy.url, 'GET', LIST)).rejects.toThrow();
  await expect(call(ref, proxy.url, 'GET', LIST)).rejects.toThrow();
  expect(await listIds(ref, proxy.url)).toEqual([id]);
  expect(proxy.dropped).toBe(2);
  expect(proxy.log.map((entry) => entry.status)).toEqual([201, 'dropped', 'dropped', 200]);
});

test.for(['default', 'bearer-bare', 'big-ids'])(
  'pages follow rel="next" Links that keep the filter (%s style)',
  async (style) => {
    const { ref, proxy } = await startBehindProxy({ pageSize: 2 }, style);
    const [draft, other] = [ref.style.statuses[0]!, ref.style.statuses.at(-1)!];
    for (const name of ['a', 'b', 'c', 'd', 'e']) await createZone(ref, ref.url, name);
    // One zone outside the filter, so a Link that lost the filter would show up in the union.
    const moved = await createZone(ref, ref.url, 'moved');
    expect((await call(ref, ref.url, 'PUT', `${API}/zones/${moved}.json`, wrap(ref, { status: other }))).status).toBe(
      200,
    );

    const filter = `${ref.style.statusParam}=${draft}`;
    const pages: string[][] = [];
    let next: string | undefined = `${LIST}?${filter}`;
    while (next !== undefined && pages.length < 10) {
      const page = await call(ref, proxy.url, 'GET', next);
      expect(page.status).toBe(200);
      pages.push(idsIn(ref, page.json));
      const link = page.headers.get('link');
      if (link === null) break;
      const target = /^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? '';
      expect(target.startsWith(`${proxy.url}${LIST}?`)).toBe(true);
      expect(new URL(target).searchParams.get(ref.style.statusParam)).toBe(draft);
      next = target.slice(proxy.url.length);
    }

    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    const unpaged = await listIds(ref, ref.url, `?${filter}`);
    expect(unpaged).toHaveLength(5);
    expect(pages.flat()).toEqual(unpaged);
    expect(proxy.pagedAnswers).toBe(2);
  },
);

test('a page size asked for in limit (at most 250) replaces pageSize, and the links carry it on with the filter', async () => {
  const { ref, proxy } = await startBehindProxy({ pageSize: 50 });
  for (let i = 0; i < 301; i += 1) ref.backdoor.plant({ name: `planted-${i}`, coverage: {} });
  const walk = async (first: string) => {
    const sizes: number[] = [];
    const asked: string[] = [];
    let next: string | undefined = first;
    while (next !== undefined && sizes.length < 10) {
      asked.push(next);
      const page = await call(ref, proxy.url, 'GET', next);
      expect(page.status).toBe(200);
      sizes.push(idsIn(ref, page.json).length);
      next = /^<([^>]+)>; rel="next"$/.exec(page.headers.get('link') ?? '')?.[1]?.slice(proxy.url.length);
    }
    return { sizes, asked: asked.map((url) => new URL(url, proxy.url).searchParams) };
  };

  const asked100 = await walk(`${LIST}?status=draft&limit=100`);
  expect(asked100.sizes).toEqual([100, 100, 100, 1]);
  expect(asked100.asked.map((query) => [query.get('status'), query.get('limit')])).toEqual(
    Array(4).fill(['draft', '100']),
  );
  expect((await walk(`${LIST}?limit=1000`)).sizes).toEqual([250, 51]);
  expect((await walk(LIST)).sizes).toEqual([50, 50, 50, 50, 50, 50, 1]);
  expect((await call(ref, proxy.url, 'GET', `${LIST}?limit=0`)).status).toBe(400);
});

test('refuseLimit answers 400 to a list that carries limit, and the list without it as usual', async () => {
  const { ref, proxy } = await startBehindProxy({ pageSize: 50, refuseLimit: true });
  const refused = await call(ref, proxy.url, 'GET', `${LIST}?limit=250`);
  expect([refused.status, refused.json.errors]).toEqual([400, 'limit is not a parameter of this list']);
  expect(await listIds(ref, proxy.url)).toEqual([]);
});

test('lists lag behind a write for listLagMs and are fresh afterwards', async () => {
  const clock = stillClock();
  const { ref, proxy } = await startBehindProxy({ listLagMs: 300 });
  expect(await listIds(ref, proxy.url)).toEqual([]);
  const id = await createZone(ref, proxy.url, 'late');

  expect(await listIds(ref, proxy.url)).toEqual([]);
  expect(proxy.laggedAnswers).toBe(1);
  // A query never listed before the write has nothing stale to serve.
  expect(await listIds(ref, proxy.url, '?status=draft')).toEqual([id]);

  clock.pass(350);
  expect(await listIds(ref, proxy.url)).toEqual([id]);
  expect(proxy.laggedAnswers).toBe(1);
});

test('latency delays every answer by latencyMs', async () => {
  const { ref, proxy } = await startBehindProxy({ latencyMs: 150 });
  const started = performance.now();
  expect((await call(ref, proxy.url, 'GET', LIST)).status).toBe(200);
  // A millisecond of slack: timers and clocks round differently.
  expect(performance.now() - started).toBeGreaterThanOrEqual(149);
});

test('an unreachable upstream is answered 502 and the proxy stays up', async () => {
  const ref = await startReference();
  await ref.close();
  const proxy = await startUnrulyProxy({ upstream: ref.url });
  running.push(proxy);

  for (let attempt = 0; attempt < 2; attempt += 1) {
    const answer = await call(ref, proxy.url, 'GET', LIST);
    expect(answer.status).toBe(502);
    expect(answer.json.errors).toMatch(/upstream failed/);
  }
});
