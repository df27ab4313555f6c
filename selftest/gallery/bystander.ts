// A zone that belongs to somebody else: planted on every gallery target before the run and compared
// after it. The suite must never change or delete a zone it did not create, on any target, broken
// or not. It is planted and read back through the reference's store, not its API, so a mutant's
// broken paths or lists can neither hide it nor stop it being planted.
import type { RunningReference } from '../../reference/server.ts';

export interface Bystander {
  id: string;
  /** The stored zone as it was before the run. */
  before: string;
}

/** The stored zone as text, or undefined once it is gone: any change, even of updated_at, shows. */
export function storedZoneText(reference: RunningReference, id: string): string | undefined {
  const zone = reference.backdoor.stored(id);
  return zone === undefined ? undefined : JSON.stringify(zone);
}

export function plantBystander(reference: RunningReference): Bystander {
  const id = reference.backdoor.plant({
    name: 'bystander-zone-of-another-team',
    coverage: { countries: ['NL', 'BE'] },
  });
  return { id, before: storedZoneText(reference, id)! };
}

export function bystanderUntouched(reference: RunningReference, bystander: Bystander | undefined): boolean {
  return bystander !== undefined && storedZoneText(reference, bystander.id) === bystander.before;
}
