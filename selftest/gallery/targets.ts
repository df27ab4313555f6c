// The targets of the mutation gallery: the reference in each house style (correct implementations
// that the suite must certify through settings alone) and the reference with one fault switched on
// (broken implementations that the suite must catch, by the rule the fault breaks).
import { configForReference } from '../../bin/embedded-reference.ts';
import type { TargetConfig } from '../../helpers/config.ts';
import { faults } from '../../reference/faults.ts';
import { startReference, type RunningReference } from '../../reference/server.ts';
import { houseStyles } from '../../reference/styles.ts';

export interface GalleryTarget {
  name: string;
  kind: 'correct' | 'mutant';
  /** For a mutant: the rules its fault breaks, as the fault declares them. */
  breaks: string[];
  description: string;
  config: TargetConfig;
  reference: RunningReference;
}

export async function startGallery(base: TargetConfig, options: { mutants?: boolean } = {}): Promise<GalleryTarget[]> {
  const targets: GalleryTarget[] = [];
  for (const style of Object.keys(houseStyles)) {
    const reference = await startReference({ style });
    targets.push({ name: `style-${style}`, kind: 'correct', breaks: [], description: `reference in the ${style} house style`, reference, config: configForReference(base, reference) });
  }
  if (options.mutants !== false) {
    for (const fault of faults) {
      const reference = await startReference({ fault: fault.name });
      targets.push({ name: `mutant-${fault.name}`, kind: 'mutant', breaks: [...fault.breaks], description: fault.description, reference, config: configForReference(base, reference) });
    }
  }
  return targets;
}

export async function stopGallery(targets: readonly GalleryTarget[]): Promise<void> {
  await Promise.all(targets.map((target) => target.reference.close()));
}
