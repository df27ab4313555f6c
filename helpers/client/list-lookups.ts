// Finding zones in a list answer, written once for the matchers, the list checks, the client and the sweeps.
import { isSuccessStatus } from '../evidence/exchange.ts';
import { jsonEqual } from '../json.ts';
import type { ZoneId, ZoneRecord, ZonesRead } from './records.ts';

export interface ReadList {
  status: number;
  read: ZonesRead;
}

export type ExpectedFields = Partial<Pick<ZoneRecord, 'name' | 'coverage' | 'status'>>;

export function findZone(zones: readonly ZoneRecord[], id: ZoneId): ZoneRecord | undefined {
  return zones.find((zone) => zone.id.text === id.text);
}

/** Every zone read from the pages, whatever the last one's status (a walk that broke off keeps what it read before). */
export function zonesOf(list: ReadList): ZoneRecord[] {
  return list.read.ok ? list.read.zones : [];
}

/** The zones of a list that succeeded and could be read; undefined for any other. */
export function readableZones(list: ReadList): ZoneRecord[] | undefined {
  return isSuccessStatus(list.status) && list.read.ok ? list.read.zones : undefined;
}

export function listedZone(list: ReadList, id: ZoneId): ZoneRecord | undefined {
  return findZone(readableZones(list) ?? [], id);
}

export function listsZone(list: ReadList, id: ZoneId): boolean {
  return listedZone(list, id) !== undefined;
}

/** The expected fields this zone shows another value for (a field it leaves out differs too). */
export function differingFields(zone: ZoneRecord, fields: ExpectedFields): (keyof ExpectedFields)[] {
  return (Object.keys(fields) as (keyof ExpectedFields)[]).filter((key) => !jsonEqual(zone[key], fields[key]));
}

export function showsZone(list: ReadList, id: ZoneId, fields: ExpectedFields): boolean {
  const zone = listedZone(list, id);
  return zone !== undefined && differingFields(zone, fields).length === 0;
}

/** The zones read from the pages that carry this (run-unique) name, whatever the last page's status. */
export function namedIn(list: ReadList, name: string): ZoneRecord[] {
  return zonesOf(list).filter((zone) => zone.name === name);
}
