// The look-ups every list check shares: which zones of a list answer count depends on whether the
// question is "what did the pages show" (sweeps, adoption by name) or "does a good list hold it"
// (the matchers and the checks), and the two must not drift apart again.
import { expect, test } from 'vitest';
import {
  differingFields,
  listedZone,
  listsZone,
  namedIn,
  readableZones,
  showsZone,
  zonesOf,
} from '../helpers/client/list-lookups.ts';
import { unreadable, type ZoneRecord } from '../helpers/client/records.ts';

const zone = (id: string, name: string, status = 'draft'): ZoneRecord => ({
  id: { text: id },
  name,
  coverage: { countries: ['DE'] },
  status,
  raw: {},
});
const zones = [zone('1', 'zc-a'), zone('2', 'zc-b', 'published'), zone('3', 'zc-a')];

test('a list that answered 2xx and reads is searched by every look-up', () => {
  const list = { status: 200, read: { ok: true as const, zones } };
  expect(readableZones(list)).toBe(zones);
  expect(listedZone(list, { text: '2' })?.name).toBe('zc-b');
  expect([listsZone(list, { text: '3' }), listsZone(list, { text: '4' })]).toEqual([true, false]);
  expect(namedIn(list, 'zc-a').map((z) => z.id.text)).toEqual(['1', '3']);
  expect(showsZone(list, { text: '2' }, { name: 'zc-b', status: 'published' })).toBe(true);
  expect(showsZone(list, { text: '2' }, { status: 'draft' })).toBe(false);
});

test('a walk that broke off on a later page keeps what it read, but is no list to judge by', () => {
  const list = { status: 500, read: { ok: true as const, zones } };
  expect(zonesOf(list)).toBe(zones);
  expect(namedIn(list, 'zc-b')).toHaveLength(1);
  expect(readableZones(list)).toBeUndefined();
  expect(listsZone(list, { text: '1' })).toBe(false);
  expect(showsZone(list, { text: '1' }, {})).toBe(false);
});

test('an answer that could not be read holds no zone for any look-up', () => {
  const list = { status: 200, read: unreadable('the body has no "zones" array') };
  expect([zonesOf(list), namedIn(list, 'zc-a'), readableZones(list)]).toEqual([[], [], undefined]);
  expect(listedZone(list, { text: '1' })).toBeUndefined();
});

test('a field the record leaves out differs from any value expected of it', () => {
  const bare = { ...zone('5', 'zc-c'), status: undefined };
  expect(differingFields(bare, { name: 'zc-c', coverage: { countries: ['DE'] }, status: 'draft' })).toEqual(['status']);
});
