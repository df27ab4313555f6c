// Every mutant starts and differs observably from the reference: a fault switch that changed nothing
// would make the suite look stronger than it is.
import { isLosslessNumber, parse } from 'lossless-json';
import { type Dispatcher, request } from 'undici';
import { expect, test } from 'vitest';
import { faults, findFault } from '../reference/faults.ts';
import { type RunningReference, startReference } from '../reference/server.ts';

const API = '/admin/api/2026-07';
const RULE_ID = /^(AUTH|CREATE|LIST|UPDATE|DELETE|PATH)-\d{2}$/;

test('every fault has a unique name, a description and at least one rule id it breaks', () => {
  expect(new Set(faults.map((fault) => fault.name)).size).toBe(faults.length);
  for (const fault of faults) {
    expect(fault.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(fault.description).not.toBe('');
    expect(fault.breaks.length).toBeGreaterThan(0);
    for (const rule of fault.breaks) expect(rule).toMatch(RULE_ID);
    expect(findFault(fault.name)).toBe(fault);
  }
  expect(findFault('no-such-fault')).toBeUndefined();
});

test('an unknown style or fault is refused with the known names listed', async () => {
  await expect(startReference({ style: 'nope' })).rejects.toThrow(/nope.*default, bearer-bare, big-ids, token-scheme/);
  await expect(startReference({ fault: 'nope' })).rejects.toThrow(/nope.*list-open/);
});

type Auth = 'valid' | 'wrong' | 'forged' | 'missing';

/**
 * Drives one fixed story through a server and writes down what an observer sees: statuses and bodies,
 * with ids replaced by their order of appearance and timestamps dropped, so two runs compare equal.
 */
async function transcriptOf(ref: RunningReference): Promise<string[]> {
  const lines: string[] = [];
  const aliases = new Map<string, string>();
  const alias = (id: string) => {
    if (!aliases.has(id)) aliases.set(id, `#${aliases.size + 1}`);
    return aliases.get(id);
  };
  const normalise = (value: unknown): unknown => {
    if (isLosslessNumber(value)) return value.toString();
    if (Array.isArray(value)) return value.map(normalise);
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value).filter(([key]) => key !== 'created_at' && key !== 'updated_at');
    return Object.fromEntries(
      entries.map(([key, item]) => [key, key === 'id' || key === 'zone_id' ? alias(String(item)) : normalise(item)]),
    );
  };
  // forged: the real token's length, one character off.
  const forged = `${ref.token.slice(0, -1)}${ref.token.endsWith('0') ? '1' : '0'}`;
  const call = async (method: string, path: string, body?: object, auth: Auth = 'valid') => {
    const headers: Record<string, string> = {};
    if (auth !== 'missing')
      headers['X-Shopify-Access-Token'] = auth === 'valid' ? ref.token : auth === 'forged' ? forged : 'not-the-token';
    // undici's request rather than fetch: a story for each of some fifty mutants, and with fetch this
    // file took 4.5 to 4.9 s of CPU against 3.2 to 3.4 (three runs each, 2026-11-24).
    const res = await request(ref.url + path, {
      method: method as Dispatcher.HttpMethod,
      headers,
      body: body && JSON.stringify(body),
    });
    const json = parse(await res.body.text()) as any;
    lines.push(
      `${method} ${path.replace(/zones\/[^/.]+/, 'zones/<id>')} ${auth} -> ${res.statusCode} ${JSON.stringify(normalise(json))}`,
    );
    return json;
  };
  const control = async (method: string, id: string) => {
    const res = await request(`${ref.url}/__reference__/zones/${id}/bookings`, {
      method: method as Dispatcher.HttpMethod,
    });
    lines.push(`${method} bookings -> ${res.statusCode} ${JSON.stringify(normalise(await res.body.json()))}`);
  };
  const list = async () => {
    await call('GET', `${API}/zones.json`);
    for (const status of ref.style.statuses) await call('GET', `${API}/zones.json?${ref.style.statusParam}=${status}`);
  };
  // A mutant may refuse the create itself: the story goes on with an id that names nothing.
  const create = async (name: string, extra: object = {}) =>
    String(
      (await call('POST', `${API}/zones.json`, { zone: { name, coverage: { countries: ['DE'] }, ...extra } })).zone?.id,
    );
  const zone = (id: string, suffix = '.json') => `${API}/zones/${id}${suffix}`;
  const last = ref.style.statuses.at(-1)!;

  const alpha = await create('Alpha the long name', { status: last });
  await list();
  for (const auth of ['missing', 'wrong', 'forged'] as const) {
    await call('GET', `${API}/zones.json`, undefined, auth);
    await call('GET', `${API}/zones.json?status=draft`, undefined, auth);
    await call('POST', `${API}/zones.json`, { zone: { name: `Ghost ${auth}`, coverage: 1 } }, auth);
    await call('PUT', zone(alpha), { zone: { name: `Stranger ${auth}` } }, auth);
  }
  await list();
  await call('PUT', zone(alpha), { zone: { name: 'Alpha renamed', coverage: { countries: ['FR'] }, status: last } });
  await list();
  const twin = await create('Twin');
  await create('Twin');
  await call('PUT', zone(twin), { zone: { name: 'Twin renamed' } });
  await list();
  await control('POST', alpha);
  await call('DELETE', zone(alpha));
  await list();
  await control('DELETE', alpha);
  for (const auth of ['missing', 'wrong'] as const) await call('DELETE', zone(twin), undefined, auth);
  await list();
  await call('DELETE', zone(alpha));
  await list();
  await call('PUT', zone(alpha), { zone: { name: 'Back again' } });
  await call('DELETE', zone(alpha));
  await call('PUT', zone(twin, ''), { zone: { name: 'No suffix' } });
  await call('DELETE', zone(twin, ''));
  await call('POST', `${API}/zones`, { zone: { name: 'No suffix', coverage: 1 } });
  await call('GET', `${API}/zones`);
  await list();
  // What only a sequence shows: an update after a rename, creates after a delete, a fourth zone.
  await call('PUT', zone(twin), { zone: { status: last } });
  await list();
  await create('Fourth');
  await create('Fifth');
  await call('PUT', zone(twin), { zone: { name: 'Twin once more' } });
  await list();
  return lines;
}

async function transcriptWith(fault?: string): Promise<string[]> {
  const ref = await startReference({ style: 'default', ...(fault ? { fault } : {}) });
  try {
    return await transcriptOf(ref);
  } finally {
    await ref.close();
  }
}

let referenceStory: Promise<string[]> | undefined;
/** Told once for every mutant to differ from: the test below proves the reference tells it the same each time. */
const theReferenceStory = () => (referenceStory ??= transcriptWith());

test('the reference tells the same story twice', async () => {
  expect(await transcriptWith()).toEqual(await theReferenceStory());
});

test.for(faults.map((fault) => fault.name))('fault %s starts and changes what a client observes', async (name) => {
  const [reference, mutant] = [await theReferenceStory(), await transcriptWith(name)];
  expect(mutant).not.toEqual(reference);
});
