// What a list must show, as plain predicates: the matchers judge with them, and the client re-reads
// a lagging list with them until it shows what was written (ZONES_CONSISTENCY_TIMEOUT_MS).
import { expect } from 'vitest';
import type { ListAnswer, ZonesClient } from './client.ts';
import { jsonEqual } from './json.ts';
import './matchers.ts';
import { PreconditionError } from './outcomes.ts';
import { findZone, type ZoneId, type ZoneRecord } from './records.ts';

export interface ExpectedFields {
  name?: unknown;
  coverage?: unknown;
  status?: unknown;
}

export function readableZones(list: ListAnswer): ZoneRecord[] | undefined {
  return list.status >= 200 && list.status <= 299 && typeof list.zones !== 'string' ? list.zones : undefined;
}

export function listsZone(list: ListAnswer, id: ZoneId): boolean {
  const zones = readableZones(list);
  return zones !== undefined && findZone(zones, id) !== undefined;
}

export function showsZone(list: ListAnswer, id: ZoneId, fields: ExpectedFields): boolean {
  const zone = findZone(readableZones(list) ?? [], id);
  return zone !== undefined && (Object.keys(fields) as (keyof ExpectedFields)[]).every((key) => jsonEqual(zone[key], fields[key]));
}

export function settableFields(zone: ZoneRecord): ExpectedFields {
  return { name: zone.name, coverage: zone.coverage, status: zone.status };
}

interface ListOptions {
  status?: string;
}

/** The fields of a listed zone that its list record does not show at all. */
function unshownFields(list: ListAnswer, id: ZoneId, fields: ExpectedFields): string[] {
  const zone = findZone(readableZones(list) ?? [], id);
  return zone ? (Object.keys(fields) as (keyof ExpectedFields)[]).filter((key) => zone[key] === undefined) : [];
}

/** The list shows the zone with these values (after re-reading a lagging list, if allowed). */
export async function expectZoneShown(api: ZonesClient, id: ZoneId, fields: ExpectedFields, options: ListOptions = {}): Promise<void> {
  const list = await api.listZones({ ...options, settle: (l) => showsZone(l, id, fields) });
  // The record's fields are not shown by the specification: a field the list leaves out cannot be checked there.
  const unshown = unshownFields(list, id, fields);
  if (unshown.length > 0) throw new PreconditionError(`list records do not show ${unshown.join(' or ')}, so the value cannot be checked`);
  expect(list).toShowZone(id, fields);
}

export async function expectZoneListed(api: ZonesClient, id: ZoneId, options: ListOptions = {}): Promise<void> {
  expect(await api.listZones({ ...options, settle: (list) => listsZone(list, id) })).toListZone(id);
}

export async function expectZoneNotListed(api: ZonesClient, id: ZoneId, options: ListOptions = {}): Promise<void> {
  expect(await api.listZones({ ...options, settle: (list) => readableZones(list) !== undefined && !listsZone(list, id) })).not.toListZone(id);
}

/** Nothing changed: read only after the whole consistency window, so a late change still shows. */
export async function expectZoneUnchanged(api: ZonesClient, before: ZoneRecord): Promise<void> {
  const shown = Object.fromEntries(Object.entries(settableFields(before)).filter(([, value]) => value !== undefined));
  if (Object.keys(shown).length === 0) throw new PreconditionError('list records show none of name, coverage and status, so "unchanged" cannot be checked');
  expect(await api.listZones({ settle: 'after-timeout' })).toShowZone(before.id, shown);
}
