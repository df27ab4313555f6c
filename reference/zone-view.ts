import { idForJson } from './ids.ts';
import type { HouseStyle } from './styles.ts';
import type { StoredZone } from './zone-store.ts';

export type ZoneRecord = Record<string, unknown>;

export function zoneRecord(style: HouseStyle, zone: StoredZone): ZoneRecord {
  return {
    [style.idField]: idForJson(style, zone.id),
    name: zone.name,
    coverage: zone.coverage,
    ...(zone.status === undefined ? {} : { status: zone.status }),
    created_at: zone.createdAt,
    updated_at: zone.updatedAt,
  };
}

export function oneZoneBody(style: HouseStyle, record: ZoneRecord): unknown {
  return style.envelope === 'wrapped' ? { zone: record } : record;
}

export function zoneListBody(style: HouseStyle, records: ZoneRecord[]): unknown {
  return style.envelope === 'wrapped' ? { zones: records } : records;
}
