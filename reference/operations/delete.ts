import { has } from '../faults.ts';
import { notFound, type Reply, reply } from '../respond.ts';
import type { ZoneService } from '../service.ts';

const bookedRefusal = { errors: { base: ['the zone has booking history and cannot be deleted'] } };

export function deleteZone(service: ZoneService, id: string): Reply {
  const { fault, store, style } = service;
  const booked = style.codes?.booked ?? 422;
  const zone = store.find(id);
  if (!zone) return style.idempotentDelete ? reply(204, undefined) : notFound();
  if (has(fault, 'delete-refuses-all')) return reply(booked, bookedRefusal);

  if (zone.bookings > 0 && !has(fault, 'delete-ignores-bookings')) {
    if (has(fault, 'delete-booked-500')) return reply(500, { errors: 'Internal Server Error' });
    if (has(fault, 'delete-booked-200-error-body')) return reply(200, bookedRefusal);
    return reply(booked, bookedRefusal);
  }

  if (has(fault, 'delete-soft')) store.put({ ...zone, softDeleted: true });
  else if (!has(fault, 'delete-keeps-zone')) store.remove(id);
  if (has(fault, 'create-restores-deleted')) service.recall.lastDeleted = zone;
  return style.codes?.deleted === 204 ? reply(204, undefined) : reply(200, {});
}
