// The ownership guard: the client refuses, before sending anything, any PUT or DELETE on a zone this
// run did not create. The one exception is the DELETE-02 attempt on ZONES_BOOKED_ZONE_ID. Where a
// store reuses ids, a test's deleted zone's id may go to another test's zone, which it leaves alone.
import { appendFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { configForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { namedIn } from '../helpers/client/list-lookups.ts';
import { PreconditionError } from '../helpers/client/records.ts';
import { type ListAnswer, OwnershipError, ZonesClient } from '../helpers/client/zones-client.ts';
import { readTargetConfig, type TargetConfig } from '../helpers/config.ts';
import type { Exchange } from '../helpers/evidence/exchange.ts';
import { OwnZones } from '../helpers/harness/own-zones.ts';
import { Ledger, readLedger } from '../helpers/ownership/ledger.ts';
import { type RunningReference, startReference } from '../reference/server.ts';

let reference: RunningReference;
let config: TargetConfig;
let foreignId: string;

beforeAll(async () => {
  reference = await startReference();
  config = configForReference(readTargetConfig({}), reference);
  // Somebody else's zone, made behind the suite's back.
  const made = await fetch(`${reference.url}/admin/api/2026-07/zones.json`, {
    method: 'POST',
    headers: { 'x-shopify-access-token': reference.token, 'content-type': 'application/json' },
    body: JSON.stringify({ zone: { name: 'not-ours', coverage: { countries: ['NL'] } } }),
  });
  foreignId = String(((await made.json()) as { zone: { id: number } }).zone.id);
});
afterAll(() => reference.close());

function clientWith(overrides: Partial<TargetConfig> = {}) {
  const sent: Exchange[] = [];
  const ledger = new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-ledger-')), 'run.jsonl'));
  const api = new ZonesClient({ ...config, ...overrides }, { ledger, onExchange: (e) => sent.push(e) });
  return { api, sent, ledger };
}

test('a PUT or DELETE on a zone the run did not create is refused without a request', async () => {
  const { api, sent, ledger } = clientWith();
  await expect(api.updateZone({ text: foreignId }, { name: 'hijacked' })).rejects.toThrow(OwnershipError);
  await expect(api.deleteZone({ text: foreignId })).rejects.toThrow(OwnershipError);
  expect(sent).toEqual([]);
  // Nor is the name written down: a rename in the ledger is one the sweep may act on.
  expect(readLedger(ledger.path)).toEqual([]);
  const list = await api.listZones();
  expect(list.read.ok && list.read.zones.find((z) => z.id.text === foreignId)?.name).toBe('not-ours');
});

test('a zone the run created is in the ledger before the create call returns, and may be changed', async () => {
  const { api, ledger } = clientWith();
  const answer = await api.createZone({ name: 'ours', coverage: {} });
  if (!answer.read.ok) throw new Error(answer.read.problem);
  const { zone } = answer.read;
  expect(readLedger(ledger.path)).toEqual([
    expect.objectContaining({ event: 'created', id: zone.id.text, name: 'ours' }),
  ]);
  expect((await api.updateZone(zone.id, { name: 'ours-renamed', coverage: {} })).status).toBe(200);
  expect((await api.deleteZone(zone.id)).status).toBe(200);
  // The rename is written before its PUT goes, so `npm run sweep` knows the name whatever came back.
  expect(readLedger(ledger.path)).toEqual([
    expect.objectContaining({ event: 'created', id: zone.id.text, name: 'ours' }),
    expect.objectContaining({ event: 'renamed', id: zone.id.text, name: 'ours-renamed' }),
    expect.objectContaining({ event: 'deleted', id: zone.id.text }),
  ]);
});

test('ZONES_BOOKED_ZONE_ID may be sent a DELETE, never a PUT', async () => {
  await fetch(`${reference.url}/__reference__/zones/${foreignId}/bookings`, { method: 'POST' });
  const { api, sent } = clientWith({ bookedZoneId: foreignId });
  await expect(api.updateZone({ text: foreignId }, { name: 'hijacked' })).rejects.toThrow(OwnershipError);
  expect(sent).toEqual([]);
  expect((await api.deleteZone({ text: foreignId })).status).toBe(422);
  expect(sent.map((e) => e.method)).toEqual(['DELETE']);
});

test('an id the run deleted and then got back from its own next create is its own again (stores that reuse ids)', () => {
  const ledger = new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-ledger-')), 'run.jsonl'));
  ledger.record({ event: 'created', id: '3', name: 'zc-a', target: 'http://shop' });
  ledger.record({ event: 'deleted', id: '3' });
  expect([ledger.owns('3'), ledger.isDeleted('3')]).toEqual([true, true]);
  ledger.record({ event: 'created', id: '3', name: 'zc-b', target: 'http://shop' });
  expect([ledger.owns('3'), ledger.isDeleted('3')]).toEqual([true, false]);
  // Another process of the run reads the same history from the file and agrees.
  const reader = new Ledger(ledger.path);
  expect([reader.owns('3'), reader.isDeleted('3')]).toEqual([true, false]);
});

test('a ledger learns what another process of the run appends since it last looked, a half-written line once it is whole', () => {
  const worker = new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-ledger-')), 'run.jsonl'));
  worker.record({ event: 'created', id: '7', name: 'zc-a', target: 'http://shop' });
  worker.record({ event: 'deleted', id: '7' });
  const launcher = new Ledger(worker.path);
  expect([launcher.owns('7'), launcher.isDeleted('7')]).toEqual([true, true]);
  // The worker's next create hands it id 7 again; the launcher looks while the line is half written.
  const line = `${JSON.stringify({ event: 'created', id: '7', name: 'zc-b', target: 'http://shop', at: 'now' })}\n`;
  appendFileSync(worker.path, line.slice(0, 20));
  expect(launcher.isDeleted('7')).toBe(true);
  appendFileSync(worker.path, line.slice(20));
  expect(launcher.isDeleted('7')).toBe(false);
  expect(launcher.owns('8')).toBe(false);
  worker.record({ event: 'created', id: '8', name: 'zc-c', target: 'http://shop' });
  expect(launcher.owns('8')).toBe(true);
});

test("a zone listed under this run's unique name at an id the run had deleted is taken back into the ledger", async () => {
  const { api, ledger } = clientWith();
  ledger.record({ event: 'created', id: foreignId, name: 'zc-earlier', target: config.baseUrl });
  ledger.record({ event: 'deleted', id: foreignId });
  const list = await api.listZones();
  // Pretend the shop gave the deleted id to our next create: the list shows it under our new name.
  const renamed: ListAnswer = {
    ...list,
    read: list.read.ok
      ? { ok: true, zones: list.read.zones.map((z) => (z.id.text === foreignId ? { ...z, name: 'zc-again' } : z)) }
      : list.read,
  };
  expect(api.adopt(namedIn(renamed, 'zc-again'), 'zc-again').map((z) => z.id.text)).toEqual([foreignId]);
  expect(ledger.isDeleted(foreignId)).toBe(false);
});

test('on a store that reuses ids, a write to an id the run deleted goes only while the list shows no zone under it', async () => {
  const shop = await startReference({ style: 'fake-rest' });
  try {
    const shopConfig = readTargetConfig(settingsForStyle(shop.style, shop.url, shop.token));
    const sent: Exchange[] = [];
    const ledger = new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-ledger-')), 'run.jsonl'));
    const api = new ZonesClient(shopConfig, { ledger, onExchange: (e) => sent.push(e) });
    const zones = new OwnZones(api, 'reuse');
    const mine = await zones.create();
    expect((await api.deleteZone(mine.id)).status).toBe(200);
    // Nothing under the id: the write goes, and the shop says the zone is gone.
    expect((await api.deleteZone(mine.id)).status).toBe(404);
    // Somebody else creates next, and the store hands out the highest id plus one: the same id.
    const theirs = await fetch(api.collectionUrl(), {
      method: 'POST',
      headers: { authorization: `Bearer ${shop.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'not-ours', coverage: {} }),
    });
    expect(String(((await theirs.json()) as { id: number }).id)).toBe(mine.id.text);
    const writesBefore = sent.filter((e) => e.method !== 'GET').length;
    const update = api.updateZone(mine.id, { name: 'after-delete', coverage: {} });
    await expect(update).rejects.toThrow(PreconditionError);
    await expect(update).rejects.toThrow('the list shows a zone under that id again; it is left alone');
    await expect(api.deleteZone(mine.id)).rejects.toThrow(PreconditionError);
    expect(await zones.cleanUp()).toEqual({ created: 1, deleted: 1, leftBehind: [] });
    expect(sent.filter((e) => e.method !== 'GET').length, 'no write after the id went to another zone').toBe(
      writesBefore,
    );
    const listed = await api.listZones();
    expect(listed.read.ok && listed.read.zones.find((z) => z.id.text === mine.id.text)?.name).toBe('not-ours');
  } finally {
    await shop.close();
  }
});
