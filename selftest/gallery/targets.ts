// The targets of the mutation gallery: the reference in each house style (correct implementations
// that the suite must certify through settings alone) and the reference with one fault switched on
// (broken implementations that the suite must catch, by the rule the fault breaks).
import { configForReference } from '../../bin/embedded-reference.ts';
import type { ModelBudget, TargetConfig } from '../../helpers/config.ts';
import { faults } from '../../reference/faults.ts';
import { type RunningReference, startReference } from '../../reference/server.ts';
import { houseStyles } from '../../reference/styles.ts';
import { type Bystander, plantBystander, storedZoneText } from './bystander.ts';

export interface GalleryTarget {
  name: string;
  /** correct: must be conformant; mutant: must fail its rules; fixture: a booking set-up under test. */
  kind: 'correct' | 'mutant' | 'fixture';
  /** For a mutant: the rules its fault breaks, as the fault declares them. */
  breaks: string[];
  /** A mutant that only a sequence shows: the example tests must pass, the model-based suite must catch it. */
  sequence: boolean;
  description: string;
  config: TargetConfig;
  reference: RunningReference;
  /** Somebody else's zone, planted before the run (see bystander.ts). */
  bystander?: Bystander;
  /** For ZONES_BOOKED_ZONE_ID: the booked zone as stored before the run. */
  bookedZoneBefore?: string;
}

/**
 * The model-based suite on a smaller budget than a certification's, for the dozens of targets the
 * gallery certifies: a correct style must raise no false alarm on it. The sequence mutants get the
 * settings' own budget, since they must be caught at the default settings.
 */
const GALLERY_MODEL: Omit<ModelBudget, 'seed'> = { runs: 3, steps: 40, maxRequests: 40, shrinkRequests: 60 };

function withModelBudget(config: TargetConfig, sequence: boolean): TargetConfig {
  return sequence ? config : { ...config, model: { ...config.model, ...GALLERY_MODEL } };
}

export async function startGallery(base: TargetConfig, options: { mutants?: boolean } = {}): Promise<GalleryTarget[]> {
  const targets: GalleryTarget[] = [];
  for (const style of Object.keys(houseStyles)) {
    const reference = await startReference({ style });
    targets.push({
      name: `style-${style}`,
      kind: 'correct',
      breaks: [],
      sequence: false,
      description: `reference in the ${style} house style`,
      reference,
      config: withModelBudget(configForReference(base, reference), false),
    });
  }
  targets.push(...(await bookingFixtureTargets(base)));
  if (options.mutants !== false) {
    for (const fault of faults) {
      const reference = await startReference({ fault: fault.name });
      targets.push({
        name: `mutant-${fault.name}`,
        kind: 'mutant',
        breaks: [...fault.breaks],
        sequence: fault.sequence,
        description: fault.description,
        reference,
        config: withModelBudget(configForReference(base, reference), fault.sequence),
      });
    }
  }
  return targets;
}

/** Every target gets a zone of somebody else's before the run. */
export function plantBystanders(targets: GalleryTarget[]): void {
  for (const target of targets) target.bystander = plantBystander(target.reference);
}

export async function stopGallery(targets: readonly GalleryTarget[]): Promise<void> {
  await Promise.all(targets.map((target) => target.reference.close()));
}

/** The booking strategies of DELETE-02, each against its own reference. */
async function bookingFixtureTargets(base: TargetConfig): Promise<GalleryTarget[]> {
  const fixture = async (name: string, description: string, adjust: (config: TargetConfig) => TargetConfig) => {
    const reference = await startReference();
    return {
      name,
      kind: 'fixture' as const,
      breaks: [],
      sequence: false,
      description,
      reference,
      config: adjust(withModelBudget(configForReference(base, reference), false)),
    };
  };
  const byZoneId = await fixture(
    'booking-by-zone-id',
    'DELETE-02 against an existing booked zone named by ZONES_BOOKED_ZONE_ID',
    (config) => config,
  );
  // What an operator names in ZONES_BOOKED_ZONE_ID: a zone the shop already had, with booking history.
  const bookedZoneId = byZoneId.reference.backdoor.plant({
    name: 'operator-booked-zone',
    coverage: { countries: ['DE'] },
    bookings: 1,
  });
  return [
    {
      ...byZoneId,
      config: { ...byZoneId.config, bookingHook: undefined, bookingCleanupHook: undefined, bookedZoneId },
      bookedZoneBefore: storedZoneText(byZoneId.reference, bookedZoneId),
    },
    await fixture(
      'booking-hook-without-cleanup',
      'ZONES_BOOKING_HOOK without a cleanup hook: booked zones stay and are reported',
      (config) => ({
        ...config,
        bookingCleanupHook: undefined,
      }),
    ),
    await fixture(
      'no-booking-fixture',
      'neither ZONES_BOOKED_ZONE_ID nor ZONES_BOOKING_HOOK: DELETE-02 is not verified',
      (config) => ({
        ...config,
        bookingHook: undefined,
        bookingCleanupHook: undefined,
      }),
    ),
  ];
}
