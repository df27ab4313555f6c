// The default profile's conventions (Shopify REST style). The specification does not show shapes or
// codes, so these are SHOULD checks: a failure is a warning and never changes the verdict.
import { expect } from 'vitest';
import type { ZoneRecord } from '../helpers/client/records.ts';
import type { Answer } from '../helpers/evidence/exchange.ts';
import { currentTarget } from '../helpers/harness/current-target.ts';
import { type ConformanceContext, notVerified, ruleCases } from '../helpers/harness/rule-test.ts';
import { runBookingHook } from '../helpers/ownership/booking-hooks.ts';
import type { SchemaName } from '../helpers/schemas.ts';

type Send = (context: ConformanceContext) => Promise<Answer>;

const createOne: Send = ({ api, zones }) => api.createZone({ name: zones.uniqueName(), coverage: zones.coverage(0) });
// With one zone of ours at least, so that the schema has a record to judge.
const listWithOwnZone: Send = async ({ api, zones }) => {
  await zones.create();
  return api.listZones();
};
const updateOne: Send = async ({ zones }) => zones.update(await zones.create(), { name: zones.uniqueName() });
const deleteOne: Send = async ({ api, zones }) => api.deleteZone((await zones.create()).id);

const shapes: { label: string; schema: SchemaName; send: Send }[] = [
  { label: 'the create answer is a zone', schema: 'zone answer', send: createOne },
  { label: 'the list answer is a list of zones', schema: 'zone list', send: listWithOwnZone },
  { label: 'the update answer is a zone', schema: 'zone answer', send: updateOne },
  {
    label: 'an unauthenticated refusal is an error body',
    schema: 'error',
    send: ({ api }) => api.listZones({ auth: 'none' }),
  },
];

ruleCases('PROFILE-01', shapes, async ({ schema, send }, context) => {
  expect(await send(context)).toMatchSchema(schema);
});

const successCodes: { label: string; codes: number[]; send: Send }[] = [
  { label: 'create answers 201', codes: [201], send: createOne },
  { label: 'list answers 200', codes: [200], send: ({ api }) => api.listZones() },
  { label: 'update answers 200', codes: [200], send: updateOne },
  { label: 'delete answers 200 or 204', codes: [200, 204], send: deleteOne },
];

ruleCases('PROFILE-02', successCodes, async ({ codes, send }, context) => {
  expect(await send(context)).toHaveStatusIn(codes);
});

const target = currentTarget();

/** An id that surely names no zone: one of ours, deleted. The suite never guesses ids. */
async function deletedZone({ api, zones }: ConformanceContext): Promise<ZoneRecord> {
  const zone = await zones.create();
  expect(await api.deleteZone(zone.id)).toSucceed();
  return zone;
}

const refusalCodes: { label: string; codes: number[]; send: Send }[] = [
  { label: 'a missing credential answers 401', codes: [401], send: ({ api }) => api.listZones({ auth: 'none' }) },
  { label: 'a wrong credential answers 401', codes: [401], send: ({ api }) => api.listZones({ auth: 'wrong' }) },
  {
    label: 'an unknown zone id answers 404',
    codes: [404],
    send: async (context) => {
      const { api, zones } = context;
      const zone = await deletedZone(context);
      return api.updateZone(zone.id, zones.updateBody(zone, { name: zones.uniqueName() }));
    },
  },
  {
    label: 'a second delete of a deleted zone answers 404',
    codes: [404],
    send: async (context) => context.api.deleteZone((await deletedZone(context)).id),
  },
  {
    label: 'deleting a booked zone answers 422',
    codes: [422],
    send: async (context) => {
      const { api, zones } = context;
      // Booking a zone without a way to unbook it would leave one more zone behind every night.
      // ZONES_BOOKED_ZONE_ID is not used here: DELETE-02 is the one request the suite may send it.
      if (!target.bookingHook || !target.bookingCleanupHook)
        notVerified(context, 'needs ZONES_BOOKING_HOOK with ZONES_BOOKING_CLEANUP_HOOK');
      const zone = await zones.create();
      zones.markBooked(zone.id);
      await runBookingHook(target, target.bookingHook, zone.id, 'ZONES_BOOKING_HOOK');
      return api.deleteZone(zone.id);
    },
  },
];

ruleCases('PROFILE-03', refusalCodes, async ({ codes, send }, context) => {
  expect(await send(context)).toHaveStatusIn(codes);
});
