// Deleting zones, spec Endpoints rule 5 and "What the service does" 4: a zone with no booking
// history is removed for good; one with booking history is refused and stays as it was.
import { expect } from 'vitest';
import { type ZoneId, zoneIdOf } from '../helpers/client/records.ts';
import { currentTarget } from '../helpers/harness/current-target.ts';
import { expectZoneNotListed, expectZoneUnchanged } from '../helpers/harness/list-checks.ts';
import { type ConformanceContext, checkedWith, notVerified, ruleTest } from '../helpers/harness/rule-test.ts';
import { bookedDeleteCause, runBookingHook } from '../helpers/ownership/booking-hooks.ts';

ruleTest('DELETE-01', async ({ api, zones, target }) => {
  const zone = await zones.create();
  expect(await api.deleteZone(zone.id)).toSucceed();
  await expectZoneNotListed(api, zone.id);
  for (const status of target.statuses) await expectZoneNotListed(api, zone.id, { status });
  // Permanently: an update of the id is refused, and does not bring the zone back.
  expect(await api.updateZone(zone.id, zones.updateBody(zone, { name: zones.uniqueName() }))).toBeRefused();
  // DELETE is idempotent, so a second one may answer 2xx (PROFILE-03 expects 404, as a SHOULD);
  // whatever it answers, the zone stays gone.
  await api.deleteZone(zone.id);
  await expectZoneNotListed(api, zone.id);
});

const target = currentTarget();

// Marked booked before the hook runs, so that clean-up knows to unbook it first (or to leave it, with the reason).
async function zoneBookedByHook({ zones }: ConformanceContext): Promise<ZoneId> {
  const zone = await zones.create();
  zones.markBooked(zone.id);
  await runBookingHook(target, target.bookingHook!, zone.id, 'ZONES_BOOKING_HOOK');
  return zone.id;
}

interface BookingFixture {
  label: string;
  bookedZone: (context: ConformanceContext) => Promise<ZoneId>;
  /** Booked by a hook, whose exit 0 is all the suite knows of the booking. */
  byHook: boolean;
}

// The embedded run books through the reference's own route: no user set ZONES_BOOKING_HOOK there.
const bookedByHook = target.embedded
  ? "a zone booked through the embedded reference's booking route"
  : 'a zone booked by ZONES_BOOKING_HOOK';

// The booked zone first: its refusal, if it comes, says that the shop keeps booked zones.
const bookingFixtures: BookingFixture[] = [
  ...(target.bookedZoneId
    ? [
        {
          label: `the booked zone ${target.bookedZoneId} (ZONES_BOOKED_ZONE_ID)`,
          bookedZone: async () => zoneIdOf(target.bookedZoneId)!,
          byHook: false,
        },
      ]
    : []),
  ...(target.bookingHook ? [{ label: bookedByHook, bookedZone: zoneBookedByHook, byHook: true }] : []),
];

// One test whatever the settings, so its name is the same every night; which booked zone it was
// checked with is said beside it in the reports.
ruleTest('DELETE-02', async (context) => {
  if (bookingFixtures.length === 0) {
    notVerified(
      context,
      'no booking fixture: set ZONES_BOOKED_ZONE_ID to a zone with booking history, or ZONES_BOOKING_HOOK to a command that books the zone in $ZONE_ID',
    );
  }
  const { api, zones } = context;
  let refusedBooked = false;
  for (const { label, bookedZone, byHook } of bookingFixtures) {
    await checkedWith(context, label);
    const id = await bookedZone(context);
    const before = await zones.readBack(id);
    expect(await api.deleteZone(id), label).toBeRefused(byHook ? bookedDeleteCause(refusedBooked) : undefined);
    refusedBooked = true;
    await expectZoneUnchanged(api, before);
  }
});
