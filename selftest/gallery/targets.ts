// The targets of the mutation gallery: the reference in each house style (correct implementations
// that the suite must certify through settings alone) and the reference with one fault switched on
// (broken implementations that the suite must catch, by the rule the fault breaks).
import { configForReference } from '../../bin/embedded-reference.ts';
import type { TargetConfig } from '../../helpers/config.ts';
import { faults } from '../../reference/faults.ts';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { houseStyles } from '../../reference/styles.ts';
import { plantBystander } from './bystander.ts';

export interface GalleryTarget {
  name: string;
  /** correct: must be conformant; mutant: must fail its rules; fixture: a booking set-up under test. */
  kind: 'correct' | 'mutant' | 'fixture';
  /** For a mutant: the rules its fault breaks, as the fault declares them. */
  breaks: string[];
  description: string;
  config: TargetConfig;
  reference: RunningReference;
  /** The bystander zone as it was before the run (see bystander.ts). */
  bystander?: string;
}

export async function startGallery(base: TargetConfig, options: { mutants?: boolean } = {}): Promise<GalleryTarget[]> {
  const targets: GalleryTarget[] = [];
  for (const style of Object.keys(houseStyles)) {
    const reference = await startReference({ style });
    targets.push({ name: `style-${style}`, kind: 'correct', breaks: [], description: `reference in the ${style} house style`, reference, config: configForReference(base, reference) });
  }
  targets.push(...(await bookingFixtureTargets(base)));
  if (options.mutants !== false) {
    for (const fault of faults) {
      const reference = await startReference({ fault: fault.name });
      targets.push({ name: `mutant-${fault.name}`, kind: 'mutant', breaks: [...fault.breaks], description: fault.description, reference, config: configForReference(base, reference) });
    }
  }
  return targets;
}

/** Every target gets a zone of somebody else's before the run. */
export async function plantBystanders(targets: GalleryTarget[]): Promise<void> {
  for (const target of targets) target.bystander = await plantBystander(target.reference);
}

export async function stopGallery(targets: readonly GalleryTarget[]): Promise<void> {
  await Promise.all(targets.map((target) => target.reference.close()));
}

/** A zone that exists before the run and has booking history: what an operator names in ZONES_BOOKED_ZONE_ID. */
async function preBookedZone(reference: RunningReference): Promise<string> {
  const created = await fetch(`${reference.url}/admin/api/2026-07/zones.json`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [reference.style.authHeader]: reference.token },
    body: JSON.stringify({ zone: { name: 'operator-booked-zone', coverage: { countries: ['DE'] } } }),
  });
  const id = /"id":\s*(\d+)/.exec(await created.text())?.[1];
  if (!created.ok || !id) throw new Error(`could not create the pre-booked zone (${created.status})`);
  const booked = await fetch(`${reference.url}/__reference__/zones/${id}/bookings`, { method: 'POST' });
  if (!booked.ok) throw new Error(`could not book zone ${id} (${booked.status})`);
  return id;
}

/** The booking strategies of DELETE-02, each against its own reference. */
async function bookingFixtureTargets(base: TargetConfig): Promise<GalleryTarget[]> {
  const fixture = async (name: string, description: string, adjust: (config: TargetConfig, reference: RunningReference) => Promise<TargetConfig>) => {
    const reference = await startReference();
    const config = await adjust(configForReference(base, reference), reference);
    return { name, kind: 'fixture' as const, breaks: [], description, reference, config };
  };
  return [
    await fixture('booking-by-zone-id', 'DELETE-02 against an existing booked zone named by ZONES_BOOKED_ZONE_ID', async (config, reference) => ({
      ...config, bookingHook: undefined, bookingCleanupHook: undefined, bookedZoneId: await preBookedZone(reference),
    })),
    await fixture('booking-hook-without-cleanup', 'ZONES_BOOKING_HOOK without a cleanup hook: booked zones stay and are reported', async (config) => ({
      ...config, bookingCleanupHook: undefined,
    })),
    await fixture('no-booking-fixture', 'neither ZONES_BOOKED_ZONE_ID nor ZONES_BOOKING_HOOK: DELETE-02 is not verified', async (config) => ({
      ...config, bookingHook: undefined, bookingCleanupHook: undefined,
    })),
  ];
}
