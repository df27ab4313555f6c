// The operations as fast-check commands, and the arbitrary that draws them. A command names its
// zone by a pick, not an id: the zone updated last (so several updates of one zone follow each other
// often) or one of the live zones, which is what lets a sequence shrink and replay from a seed.
import fc from 'fast-check';
import type { TargetConfig } from '../../config.ts';
import { type Change, createZone, deleteZone, listZones, type Sequence, updateZone } from './operations.ts';
import type { ModelSession } from './session.ts';
import type { ModelZone } from './zone-model.ts';

export interface SequenceState {
  sequence: Sequence;
  session: ModelSession;
}

export type ZoneCommand = fc.AsyncCommand<SequenceState, ModelSession, false>;

export interface ZonePick {
  recent: boolean;
  index: number;
}

/** The sequence's oldest zone it still holds: what the sequences written in advance (stories, top-ups) address. */
export const OLDEST: ZonePick = { recent: false, index: 0 };

/** The zones of the sequence a command may address: those whose id is known, and not booked if it must not be. */
function candidates({ sequence }: Readonly<SequenceState>, unbookedOnly: boolean): ModelZone[] {
  return sequence.model.live.filter((zone) => zone.id !== undefined && !(unbookedOnly && zone.booked));
}

function pickZone(state: Readonly<SequenceState>, pick: ZonePick, unbookedOnly = false): ModelZone | undefined {
  const zones = candidates(state, unbookedOnly);
  if (zones.length === 0) return undefined;
  const recent = state.sequence.lastUpdated;
  if (pick.recent && recent && zones.includes(recent)) return recent;
  return zones[pick.index % zones.length];
}

/**
 * Whether the budget allows one more operation, keeping back what the sequence will spend anyway
 * when it ends (the closing read, and a delete for each of its zones), so that a run's requests stay
 * within ZONES_MODEL_MAX_REQUESTS but for the operation under way.
 */
function mayStart({ sequence, session }: Readonly<SequenceState>): boolean {
  return session.mayStart(1 + sequence.model.live.length);
}

/**
 * A sequence keeps at most this many zones it could still delete: more would lengthen every list
 * read without making new kinds of sequences. Booked zones come on top, as they cannot be deleted.
 */
const MOST_ZONES = 5;

export class CreateCommand implements ZoneCommand {
  constructor(
    readonly asked: string | undefined,
    readonly coverage: number,
  ) {}
  check(state: Readonly<SequenceState>): boolean {
    return mayStart(state) && candidates(state, true).length < MOST_ZONES;
  }
  run(state: SequenceState): Promise<void> {
    return createZone(state.sequence, state.session, this.asked, this.coverage);
  }
  toString(): string {
    return this.asked === undefined ? 'create' : `create(${this.asked})`;
  }
}

export class UpdateCommand implements ZoneCommand {
  constructor(
    readonly pick: ZonePick,
    readonly change: Change,
  ) {}
  check(state: Readonly<SequenceState>): boolean {
    return mayStart(state) && pickZone(state, this.pick) !== undefined;
  }
  run(state: SequenceState): Promise<void> {
    return updateZone(state.sequence, state.session, pickZone(state, this.pick)!, this.change);
  }
  toString(): string {
    return `update(${Object.keys(this.change).join('+')})`;
  }
}

export class DeleteCommand implements ZoneCommand {
  constructor(
    readonly pick: ZonePick,
    readonly book: boolean,
  ) {}
  check(state: Readonly<SequenceState>): boolean {
    return mayStart(state) && pickZone(state, this.pick, !this.book) !== undefined;
  }
  run(state: SequenceState): Promise<void> {
    return deleteZone(state.sequence, state.session, pickZone(state, this.pick, !this.book)!, this.book);
  }
  toString(): string {
    return this.book ? 'book+delete' : 'delete';
  }
}

export class ListCommand implements ZoneCommand {
  constructor(readonly filter: string | undefined) {}
  check(state: Readonly<SequenceState>): boolean {
    return mayStart(state) && (this.filter === undefined || state.session.filtersLost === undefined);
  }
  run(state: SequenceState): Promise<void> {
    return listZones(state.sequence, state.session, this.filter);
  }
  toString(): string {
    return this.filter === undefined ? 'list' : `list(${this.filter})`;
  }
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

/**
 * One command, drawn with weights that keep sequences busy: updates most (each is read back at once),
 * then creates and deletes (judged by the reads that follow), and a few list reads of their own. An
 * update picks the zone updated last more often than not, so several updates of one zone follow each
 * other. A booked delete is drawn only when the booking hooks, both of them, are set: a zone booked
 * without a way to unbook it would be left behind.
 */
export function commandArbitrary(config: TargetConfig): fc.Arbitrary<ZoneCommand> {
  const otherStatuses = config.statuses.filter((status) => status !== 'draft');
  const choice = fc.nat({ max: 63 });
  const pick = fc.record({ recent: fc.nat({ max: 9 }).map((n) => n < 6), index: choice });
  const create = fc
    .record({ asked: fc.option(fc.constantFrom(...otherStatuses), { nil: undefined, freq: 2 }), coverage: choice })
    .map(({ asked, coverage }): ZoneCommand => new CreateCommand(asked, coverage));
  const change = fc
    .record({ fields: fc.constantFrom(...FIELD_SETS), name: fc.constant(true), coverage: choice, status: choice })
    .map(({ fields, ...values }) => Object.fromEntries(fields.map((field) => [field, values[field]])) as Change);
  const update = fc.record({ pick, change }).map(({ pick, change }): ZoneCommand => new UpdateCommand(pick, change));
  const bookable = config.bookingHook !== undefined && config.bookingCleanupHook !== undefined;
  // A delete picks any zone alike: the one updated last is for the updates that follow.
  const remove = fc
    .record({
      pick: fc.record({ recent: fc.constant(false), index: choice }),
      book: bookable ? fc.constantFrom(false, false, true) : fc.constant(false),
    })
    .map(({ pick, book }): ZoneCommand => new DeleteCommand(pick, book));
  const list = fc
    .option(fc.constantFrom(...config.statuses), { nil: undefined, freq: 3 })
    .map((filter): ZoneCommand => new ListCommand(filter));
  return fc.oneof(
    { arbitrary: create, weight: 4 },
    { arbitrary: update, weight: 6 },
    { arbitrary: remove, weight: 3 },
    { arbitrary: list, weight: 1 },
  );
}
