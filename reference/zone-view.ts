import { putAtPath } from './dotted-path.ts';
import { idForJson } from './ids.ts';
import { type HouseStyle, listKeyOf, zoneKeyOf } from './styles.ts';
import type { StoredZone } from './zone-store.ts';

export type ZoneRecord = Record<string, unknown>;

export function zoneRecord(style: HouseStyle, zone: StoredZone): ZoneRecord {
  return {
    [style.idField]: idForJson(style, zone.id),
    name: zone.name,
    ...(zone.coverage === undefined ? {} : { coverage: zone.coverage }),
    ...(zone.status === undefined ? {} : { status: zone.status }),
    created_at: zone.createdAt,
    updated_at: zone.updatedAt,
    ...style.extraZoneFields,
  };
}

function wrapped(path: string, value: unknown): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  putAtPath(body, path, value);
  return body;
}

export function oneZoneBody(style: HouseStyle, record: ZoneRecord): unknown {
  return style.envelope === 'wrapped' ? wrapped(zoneKeyOf(style), record) : record;
}

/** A list answer; with cursor paging it names the next page, or null on the last one. */
export function zoneListBody(style: HouseStyle, records: ZoneRecord[], nextCursor?: string): unknown {
  if (style.envelope === 'bare') return records;
  const body = wrapped(listKeyOf(style), records);
  if (style.paging?.kind === 'cursor') putAtPath(body, style.paging.field, nextCursor ?? null);
  return body;
}
