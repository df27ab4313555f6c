// The operations as fast-check commands, and the arbitrary that draws them. A command picks its zone (the
// one updated last, or one of the live zones), never by id, so a sequence can shrink and replay from a seed.
import fc from 'fast-check';
import type { TargetConfig } from '../../config.ts';
import { type Change, createZone, deleteZone, listZones, type Sequence, updateZone } from './operations.ts';
import type { ModelSession } from './session.ts';
import type { ModelZone } from './zone-model.ts';

export type ZoneCommand = fc.AsyncCommand<Sequence, ModelSession, false>;

type ZonePick = { recent: boolean; index: number };

/** The sequence's oldest zone it still holds: what the sequences written in advance (stories, top-ups) address. */
export const OLDEST: ZonePick = { recent: false, index: 0 };

/** The zones of the sequence a command may address: those whose id is known, and not booked if it must not be. */
function candidates(sequence: Readonly<Sequence>, unbookedOnly: boolean): ModelZone[] {
  return sequence.model.live.filter((zone) => zone.id !== undefined && !(unbookedOnly && zone.booked));
}

function pickZone(sequence: Readonly<Sequence>, pick: ZonePick, unbookedOnly = false): ModelZone | undefined {
  const zones = candidates(sequence, unbookedOnly);
  if (zones.length === 0) return undefined;
  const recent = sequence.lastUpdated;
  if (pick.recent && recent && zones.includes(recent)) return recent;
  return zones[pick.index % zones.length];
}

/** Zones a sequence may hold that it could still delete: more would lengthen every read, not vary the sequences. */
const MOST_ZONES = 5;

/** A command that starts only while the budget allows it and the sequence's end (a read, a delete per zone). */
function command(
  applies: (sequence: Readonly<Sequence>) => boolean,
  run: (sequence: Sequence) => Promise<void>,
): ZoneCommand {
  return { check: (sequence) => sequence.session.mayStart(1 + sequence.model.live.length) && applies(sequence), run };
}

export function create(asked?: string, coverage = 0): ZoneCommand {
  return command(
    (sequence) => candidates(sequence, true).length < MOST_ZONES,
    (sequence) => createZone(sequence, asked, coverage),
  );
}

export function update(pick: ZonePick, change: Change): ZoneCommand {
  return command(
    (sequence) => pickZone(sequence, pick) !== undefined,
    (sequence) => updateZone(sequence, pickZone(sequence, pick)!, change),
  );
}

export function remove(pick: ZonePick, book: boolean): ZoneCommand {
  return command(
    (sequence) => pickZone(sequence, pick, !book) !== undefined,
    (sequence) => deleteZone(sequence, pickZone(sequence, pick, !book)!, book),
  );
}

export function list(filter?: string): ZoneCommand {
  return command(
    (sequence) => filter === undefined || sequence.session.filtersLost === undefined,
    (sequence) => listZones(sequence, filter),
  );
}

/** Whether the sequences may book a zone: only with both hooks, or a booked zone could not be unbooked. */
export function canBook(config: TargetConfig): boolean {
  return config.bookingHook !== undefined && config.bookingCleanupHook !== undefined;
}

// One field at a time as often as any two or three together.
const FIELD_SETS: readonly (keyof Change)[][] = [
  ['name'],
  ['name'],
  ['coverage'],
  ['coverage'],
  ['status'],
  ['status'],
  ['name', 'coverage'],
  ['name', 'status'],
  ['coverage', 'status'],
  ['name', 'coverage', 'status'],
];

/** Weights that keep sequences busy: updates most (each read back at once), then creates, deletes, a few lists. */
export function commandArbitrary(config: TargetConfig): fc.Arbitrary<ZoneCommand> {
  const otherStatuses = config.statuses.filter((status) => status !== 'draft');
  const choice = fc.nat({ max: 63 });
  const pick = fc.record({ recent: fc.nat({ max: 9 }).map((n) => n < 6), index: choice });
  const creates = fc
    .record({ asked: fc.option(fc.constantFrom(...otherStatuses), { nil: undefined, freq: 2 }), coverage: choice })
    .map(({ asked, coverage }) => create(asked, coverage));
  const change = fc
    .record({ fields: fc.constantFrom(...FIELD_SETS), name: fc.constant(true), coverage: choice, status: choice })
    .map(({ fields, ...values }) => Object.fromEntries(fields.map((field) => [field, values[field]])) as Change);
  const updates = fc.record({ pick, change }).map(({ pick, change }) => update(pick, change));
  // A delete picks any zone alike: the one updated last is for the updates that follow.
  const deletes = fc
    .record({
      pick: fc.record({ recent: fc.constant(false), index: choice }),
      book: canBook(config) ? fc.constantFrom(false, false, true) : fc.constant(false),
    })
    .map(({ pick, book }) => remove(pick, book));
  const lists = fc.option(fc.constantFrom(...config.statuses), { nil: undefined, freq: 3 }).map(list);
  return fc.oneof(
    { arbitrary: creates, weight: 4 },
    { arbitrary: updates, weight: 6 },
    { arbitrary: deletes, weight: 3 },
    { arbitrary: lists, weight: 1 },
  );
}
