import { has } from '../faults.ts';
import { notFound, type Reply, reply } from '../respond.ts';
import { draftStatus, now, type ZoneService } from '../service.ts';
import type { HouseStyle } from '../styles.ts';
import { checkUpdate, type ZoneChanges } from '../zone-input.ts';
import type { StoredZone } from '../zone-store.ts';
import { oneZoneBody, zoneRecord } from '../zone-view.ts';

function withChanges(zone: StoredZone, changes: ZoneChanges, at: string): StoredZone {
  return { ...zone, ...changes, updatedAt: at, awaitingFirstUpdate: false };
}

function honouredChanges({ fault }: ZoneService, changes: ZoneChanges): ZoneChanges {
  const honoured = { ...changes };
  if (has(fault, 'update-ignores-name')) delete honoured.name;
  if (has(fault, 'update-ignores-coverage')) delete honoured.coverage;
  if (has(fault, 'update-ignores-status')) delete honoured.status;
  return honoured;
}

/** What is kept may differ from what is answered: the echo mutants answer the change but keep the old value. */
function keptVersion({ fault }: ZoneService, before: StoredZone, answered: StoredZone): StoredZone {
  const kept = {
    ...answered,
    name: has(fault, 'update-echoes-name') ? before.name : answered.name,
    coverage: has(fault, 'update-echoes-coverage') ? before.coverage : answered.coverage,
  };
  if (!has(fault, 'update-undoes-rename')) return kept;
  if (kept.name !== before.name) return { ...kept, nameBeforeRename: before.name };
  // An update that leaves the name alone "restores" the one before the last rename.
  return { ...kept, name: before.nameBeforeRename ?? kept.name, nameBeforeRename: undefined };
}

/** Where an update lands: the addressed zone, or for one mutant, once four are held, the zone created after it. */
function landingZone({ fault, store }: ZoneService, addressed: StoredZone): StoredZone {
  if (!has(fault, 'update-lands-on-next-zone')) return addressed;
  const zones = store.all();
  if (zones.length < 4) return addressed;
  return zones[zones.findIndex((zone) => zone.id === addressed.id) + 1] ?? addressed;
}

/** The strict styles' own rules: a full record on every PUT, and only the moves they allow. */
function houseRuleRefusal(
  style: HouseStyle,
  before: StoredZone,
  changes: ZoneChanges,
): Record<string, string[]> | undefined {
  if (style.putReplaces) {
    const missing = (['name', 'coverage', 'status'] as const).filter((field) => !Object.hasOwn(changes, field));
    if (missing.length > 0)
      return Object.fromEntries(missing.map((field) => [field, ['is required: PUT replaces the whole zone']]));
  }
  const allowed = before.status === undefined ? undefined : style.moves?.[before.status];
  if (allowed && changes.status !== undefined && !allowed.includes(changes.status)) {
    return { status: [`cannot move from ${before.status} to ${changes.status}`] };
  }
  return undefined;
}

/** PUT as "create or replace", as some mock servers have it: a zone that is gone comes back. */
function upsert({ style, store }: ZoneService, id: string, changes: ZoneChanges): Reply {
  const at = now();
  const status = changes.status ?? draftStatus(style);
  const zone: StoredZone = {
    id,
    name: changes.name ?? '',
    coverage: changes.coverage ?? {},
    status,
    createdAt: at,
    updatedAt: at,
    bookings: 0,
    statusAtCreation: status,
    awaitingFirstUpdate: false,
    softDeleted: false,
  };
  store.put(zone);
  return reply(201, oneZoneBody(style, zoneRecord(style, zone)));
}

export function updateZone(service: ZoneService, id: string, body: unknown): Reply {
  const { fault, style, store } = service;
  const before = store.find(id);
  const checked = checkUpdate(style, body);
  if (!before && has(fault, 'put-upserts') && checked.ok) return upsert(service, id, checked.value);
  if (!before) return notFound();
  if (!checked.ok) return reply(style.codes?.invalid ?? 422, { errors: checked.errors });
  const refusal = houseRuleRefusal(style, before, checked.value);
  if (refusal) return reply(422, { errors: refusal });

  const changes = honouredChanges(service, checked.value);
  const at = now();
  const answered = withChanges(before, changes, at);
  const landing = landingZone(service, before);
  store.put(keptVersion(service, landing, landing === before ? answered : withChanges(landing, changes, at)));
  if (has(fault, 'update-same-name-too')) {
    for (const other of store.all()) {
      if (other.id !== id && other.name === before.name) store.put(withChanges(other, changes, at));
    }
  }
  return reply(200, oneZoneBody(style, zoneRecord(style, answered)));
}
