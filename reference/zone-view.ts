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
    ...Object.fromEntries(
      Object.entries(style.extraZoneFields ?? {}).map(([field, value]) => [field, filledIn(value, zone)]),
    ),
  };
}

/** A template string with the zone's id and the answer's time in it; any other value as it is. */
function filledIn(value: unknown, zone: StoredZone): unknown {
  if (typeof value !== 'string') return value;
  return value.replaceAll('{id}', zone.id).replaceAll('{now}', new Date().toISOString());
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
