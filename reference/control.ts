// TEST-ONLY control surface, outside /admin/api and without authentication. The spec does not say how
// bookings are made, yet DELETE-02 needs a zone with booking history; this route gives one to the
// embedded reference. A real shop never has it.
import { notFound, type Reply, reply } from './respond.ts';
import type { ZoneService } from './service.ts';

const CONTROL_PREFIX = '/__reference__/';
const BOOKINGS_PATH = /^\/__reference__\/zones\/([^/]+)\/bookings$/;

export const isControlPath = (pathname: string): boolean => pathname.startsWith(CONTROL_PREFIX);

function decoded(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

export function answerControlRequest({ store }: ZoneService, method: string, pathname: string): Reply {
  const match = BOOKINGS_PATH.exec(pathname);
  const zoneId = match ? decoded(match[1]!) : undefined;
  if (zoneId === undefined) return notFound();
  if (method !== 'POST' && method !== 'DELETE') {
    return reply(405, { errors: `method ${method} is not allowed here` }, { allow: 'POST, DELETE' });
  }
  const zone = store.find(zoneId);
  if (!zone) return notFound();
  const bookings = method === 'POST' ? zone.bookings + 1 : 0;
  store.put({ ...zone, bookings });
  return reply(method === 'POST' ? 201 : 200, { zone_id: zoneId, bookings });
}
