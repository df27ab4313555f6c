import { has } from '../faults.ts';
import { type Reply, reply } from '../respond.ts';
import { draftStatus, now, type ZoneService } from '../service.ts';
import { type CreateFields, checkCreate } from '../zone-input.ts';
import { oneZoneBody, zoneRecord } from '../zone-view.ts';

function initialStatus({ fault, style }: ZoneService, fields: CreateFields): string {
  if (has(fault, 'create-as-published')) return style.statuses[1] ?? draftStatus(style);
  const asked = fields.requestedStatus;
  if (has(fault, 'create-honours-body-status') && typeof asked === 'string' && style.statuses.includes(asked))
    return asked;
  return draftStatus(style);
}

export function createZone(service: ZoneService, body: unknown): Reply {
  const { fault, style, store } = service;
  const checked = checkCreate(style, body);
  if (!checked.ok) return reply(style.codes?.invalid ?? 422, { errors: checked.errors });
  const fields = checked.value;
  service.recall.filterCache.clear();
  if (has(fault, 'create-restores-deleted') && service.recall.lastDeleted) {
    store.put(service.recall.lastDeleted);
    service.recall.lastDeleted = undefined;
  }
  const status = initialStatus(service, fields);
  const createdAt = now();
  const zone = {
    id: service.nextId(),
    name: has(fault, 'create-truncates-name') ? [...fields.name].slice(0, 8).join('') : fields.name,
    coverage: has(fault, 'create-drops-coverage')
      ? {}
      : has(fault, 'create-forgets-coverage')
        ? undefined
        : fields.coverage,
    status: has(fault, 'create-without-status') ? undefined : status,
    createdAt,
    updatedAt: createdAt,
    bookings: 0,
    statusAtCreation: status,
    awaitingFirstUpdate: has(fault, 'create-unlisted'),
    softDeleted: false,
  };
  store.put(zone);
  const created = style.codes?.created ?? 201;
  if (style.createAnswer === 'empty') return reply(created, undefined);
  return reply(created, oneZoneBody(style, zoneRecord(style, zone)));
}
