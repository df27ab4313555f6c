// A mock that keeps its zones in a file (`--data FILE`): what a team's tests made before a restart is
// there after it, under the same ids, with its booking history; a file the mock did not write is
// refused, named, and left exactly as it was.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.ts';
import { houseStyles } from '../reference/styles.ts';

const TOKEN = 'mock_data_token_0123456789';

function ask(reference: RunningReference, method: string, path: string, body?: unknown) {
  return fetch(`${reference.url}${path}`, {
    method,
    headers: { 'X-Shopify-Access-Token': TOKEN, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

const ZONES = '/admin/api/2026-07/zones.json';
const listed = async (reference: RunningReference) =>
  ((await (await ask(reference, 'GET', ZONES)).json()) as { zones: { id: number; name: string }[] }).zones;

test('zones and their bookings made before a restart are listed after it under the same ids; new ids never repeat them', async () => {
  const dataFile = join(mkdtempSync(join(tmpdir(), 'zc-mock-data-')), 'zones.json');
  const first = await startReference({ token: TOKEN, dataFile });
  // A missing file is an empty shop, written at once.
  expect(JSON.parse(readFileSync(dataFile, 'utf8')).zones).toEqual([]);
  const created = await ask(first, 'POST', ZONES, { zone: { name: 'kept', coverage: { countries: ['DE'] } } });
  expect(created.status).toBe(201);
  const { zone } = (await created.json()) as { zone: { id: number } };
  expect((await fetch(`${first.url}/__reference__/zones/${zone.id}/bookings`, { method: 'POST' })).status).toBe(201);
  await first.close();

  const second = await startReference({ token: TOKEN, dataFile });
  try {
    expect(await listed(second)).toEqual([expect.objectContaining({ id: zone.id, name: 'kept' })]);
    // The booking history came back too: the zone is still refused deletion.
    expect((await ask(second, 'DELETE', `/admin/api/2026-07/zones/${zone.id}.json`)).status).toBe(422);
    const next = (await (await ask(second, 'POST', ZONES, { zone: { name: 'new', coverage: {} } })).json()) as {
      zone: { id: number };
    };
    expect(next.zone.id).toBeGreaterThan(zone.id);
  } finally {
    await second.close();
  }
});

test.for([
  ['not JSON at all', '{"zones": [oops'],
  ['JSON of another program', JSON.stringify({ zones: [{ id: 1, name: 'x' }] })],
  [
    'a kept zone without its times',
    JSON.stringify({
      format: 'zones-conformance mock data',
      version: 1,
      zones: [{ id: '1', name: 'x', coverage: {}, bookings: 0 }],
    }),
  ],
])('a data file that is %s is refused, named, and left as it was', async ([, text]) => {
  const dataFile = join(mkdtempSync(join(tmpdir(), 'zc-mock-data-')), 'theirs.json');
  writeFileSync(dataFile, text!);
  await expect(startReference({ token: TOKEN, dataFile })).rejects.toThrow(
    new RegExp(
      `^${dataFile.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is not a data file this mock wrote .*; it was left as it was$`,
    ),
  );
  expect(readFileSync(dataFile, 'utf8')).toBe(text);
});

test.for([
  ['number', '20000', (id: string) => BigInt(id) > 20000n],
  // A data file written in another style: a number past 2^53 must not be rounded onto an id already given.
  ['number', '9007199254760001', (id: string) => BigInt(id) > 9007199254760001n],
  ['max-plus-one', '9007199254760001', (id: string) => BigInt(id) > 9007199254760001n],
  ['max-plus-one', 'zn_kept00', (id: string) => /^\d+$/.test(id)],
  ['big-number', '9007199254760001', (id: string) => BigInt(id) > 9007199254760001n],
  ['string', 'zn_kept00', (id: string) => id !== 'zn_kept00'],
] as const)(
  'a %s id %s kept in the file is never handed out again after a restart, nor twice',
  async ([idStyle, kept, isNew]) => {
    const dataFile = join(mkdtempSync(join(tmpdir(), 'zc-mock-data-')), 'zones.json');
    const at = '2026-11-27T12:00:00.000Z';
    const zone = { id: kept, name: 'kept', coverage: {}, status: 'draft', createdAt: at, updatedAt: at, bookings: 0 };
    writeFileSync(dataFile, JSON.stringify({ format: 'zones-conformance mock data', version: 1, zones: [zone] }));
    const style = { ...houseStyles.default!, idStyle, name: `kept ${idStyle}` };
    const mock = await startReference({ token: TOKEN, dataFile, style });
    try {
      const ids: string[] = [];
      for (const name of ['next', 'after']) {
        const created = await ask(mock, 'POST', ZONES, { zone: { name, coverage: {} } });
        ids.push(/"id":"?([^",}]+)/.exec(await created.text())![1]!);
      }
      expect(ids.map(isNew), `${kept} then ${ids.join(', ')}`).toEqual([true, true]);
      expect(new Set(ids).size, ids.join(', ')).toBe(2);
      expect(
        mock.backdoor
          .all()
          .map((stored) => stored.name)
          .sort(),
      ).toEqual(['after', 'kept', 'next']);
    } finally {
      await mock.close();
    }
  },
);
