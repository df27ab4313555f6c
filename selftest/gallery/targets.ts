// The targets of the mutation gallery: the reference in each house style (correct implementations
// that the suite must certify through settings alone) and the reference with one fault switched on
// (broken implementations that the suite must catch, by the rule the fault breaks).
import { configForReference } from '../../bin/reference-settings.ts';
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
 * The model-based suite on a smaller budget than a certification's, for the dozens of mutants the
 * gallery certifies that the example tests must catch alone. The correct styles and the sequence
 * mutants get the settings' own budget: a correct style must raise no false alarm at the default
 * settings, and a sequence mutant must be caught at them.
 */
const GALLERY_MODEL: Omit<ModelBudget, 'seed'> = { runs: 3, steps: 40, maxRequests: 40, shrinkRequests: 60 };

/**
 * The mutants' seed: which other rules a mutant breaks by the way (its collateral in the kill matrix)
 * can depend on the sequences drawn, and the committed matrix must read the same when regenerated
 * from the same code. The correct styles draw a new seed each run, so that every run of the gallery
 * looks for a false alarm where the last did not; a failure names its seed.
 */
const MUTANT_SEED = 20260701;

function withModelBudget(
  config: TargetConfig,
  target: 'correct' | 'fixture' | 'mutant' | 'sequence mutant',
): TargetConfig {
  const budget =
    target === 'correct' || target === 'sequence mutant' ? config.model : { ...config.model, ...GALLERY_MODEL };
  const seed = target === 'mutant' || target === 'sequence mutant' ? MUTANT_SEED : config.model.seed;
  return { ...config, model: { ...budget, seed } };
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
      config: withModelBudget(configForReference(base, reference), 'correct'),
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
        config: withModelBudget(configForReference(base, reference), fault.sequence ? 'sequence mutant' : 'mutant'),
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
      config: adjust(withModelBudget(configForReference(base, reference), 'fixture')),
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
