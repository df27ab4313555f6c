// The default profile's conventions (Shopify REST style). The specification does not show shapes or
// codes, so these are SHOULD checks: a failure is a warning and never changes the verdict.
import { expect, inject } from 'vitest';
import { notVerified } from '../helpers/harness/not-verified.ts';
import { ruleCases } from '../helpers/harness/rule-test.ts';
import { runBookingHook } from '../helpers/target/booking-hooks.ts';

ruleCases(
  'PROFILE-01',
  [
    { shape: 'create', label: 'the create answer is a zone' },
    { shape: 'list', label: 'the list answer is a list of zones' },
    { shape: 'update', label: 'the update answer is a zone' },
    { shape: 'refusal', label: 'an unauthenticated refusal is an error body' },
  ] as const,
  async ({ shape }, { api, zones }) => {
    if (shape === 'create') {
      expect(await api.createZone({ name: zones.uniqueName(), coverage: zones.coverage(0) })).toMatchSchema(
        'zone answer',
      );
    } else if (shape === 'list') {
      await zones.create();
      expect(await api.listZones()).toMatchSchema('zone list');
    } else if (shape === 'update') {
      const zone = await zones.create();
      expect(await zones.update(zone, { name: zones.uniqueName() })).toMatchSchema('zone answer');
    } else {
      expect(await api.listZones({ auth: 'none' })).toMatchSchema('error');
    }
  },
);

ruleCases(
  'PROFILE-02',
  [
    { operation: 'create', codes: [201], label: 'create answers 201' },
    { operation: 'list', codes: [200], label: 'list answers 200' },
    { operation: 'update', codes: [200], label: 'update answers 200' },
    { operation: 'delete', codes: [200, 204], label: 'delete answers 200 or 204' },
  ] as const,
  async ({ operation, codes }, { api, zones }) => {
    if (operation === 'create') {
      expect(await api.createZone({ name: zones.uniqueName(), coverage: zones.coverage(0) })).toHaveStatusIn(codes);
    } else if (operation === 'list') {
      expect(await api.listZones()).toHaveStatusIn(codes);
    } else {
      const zone = await zones.create();
      const answer =
        operation === 'update' ? await zones.update(zone, { name: zones.uniqueName() }) : await api.deleteZone(zone.id);
      expect(answer).toHaveStatusIn(codes);
    }
  },
);

const target = inject('zonesTarget');

ruleCases(
  'PROFILE-03',
  [
    { refusal: 'missing', label: 'a missing credential answers 401' },
    { refusal: 'wrong', label: 'a wrong credential answers 401' },
    { refusal: 'unknown', label: 'an unknown zone id answers 404' },
    { refusal: 'deleted', label: 'a second delete of a deleted zone answers 404' },
    { refusal: 'booked', label: 'deleting a booked zone answers 422' },
  ] as const,
  async ({ refusal }, context) => {
    const { api, zones } = context;
    if (refusal === 'missing' || refusal === 'wrong') {
      expect(await api.listZones({ auth: refusal === 'missing' ? 'none' : 'wrong' })).toHaveStatusIn([401]);
    } else if (refusal === 'unknown' || refusal === 'deleted') {
      // An id that surely names no zone: one of ours, deleted. The suite never guesses ids.
      const zone = await zones.create();
      expect(await api.deleteZone(zone.id)).toSucceed();
      const answer =
        refusal === 'unknown'
          ? await api.updateZone(zone.id, zones.updateBody(zone, { name: zones.uniqueName() }))
          : await api.deleteZone(zone.id);
      expect(answer).toHaveStatusIn([404]);
    } else if (target.bookingHook && target.bookingCleanupHook) {
      const zone = await zones.create();
      zones.markBooked(zone.id);
      await runBookingHook(target, target.bookingHook, zone.id, 'ZONES_BOOKING_HOOK');
      expect(await api.deleteZone(zone.id)).toHaveStatusIn([422]);
    } else {
      // Booking a zone without a way to unbook it would leave one more zone behind every night.
      // ZONES_BOOKED_ZONE_ID is not used here: DELETE-02 is the one request the suite may send it.
      notVerified(context, 'needs ZONES_BOOKING_HOOK with ZONES_BOOKING_CLEANUP_HOOK');
    }
  },
);
