// What the model knows of its sequence's zones: only what the specification documents (draft on create,
// updates of their own zone, permanent deletes, booked zones kept, a filter of exactly one status).
import type { ZoneId } from '../../client/records.ts';
import { jsonEqual } from '../../json.ts';

export const FIELDS = ['name', 'coverage', 'status'] as const;
export type Field = (typeof FIELDS)[number];

export interface ModelZone {
  /** A, B, C... in the order the sequence created them: how a failure names them. */
  label: string;
  /** Unknown only between a create whose answer showed no zone and the list read that finds it. */
  id?: ZoneId;
  /** The unique name it was created with, by which a list finds it when the create answer shows no zone. */
  createdAs: string;
  /** The values each field may show: one once known, two after a refused write (the next read settles which). */
  expected: Record<Field, unknown[]>;
  /** The status the create body asked for, if any (CREATE-03 rather than CREATE-02). */
  askedStatus?: string;
  /** An update of it has succeeded: from then on every field it shows is the update's doing. */
  updated: boolean;
  booked: boolean;
  /** Whether a list has shown it since it was created. */
  seen: boolean;
  /** Whether its records show a status (a shop may leave out a default status). */
  showsStatus: boolean;
  /** What happened since a list last showed it as expected: who is to blame if it now differs. */
  since: ReturnType<typeof nothingSince>;
}

/** Fields its own updates changed; whether it was updated (a PUT sends all fields), another was, its delete refused. */
export function nothingSince() {
  return { changed: new Set<Field>(), updated: false, othersUpdated: false, refusedDelete: false };
}

export interface ZoneModel {
  /** The zones of this sequence that exist, in creation order. */
  live: ModelZone[];
  /** The zones this sequence deleted: none may come back. */
  deleted: ModelZone[];
  /** Each name the sequence sent, and the zone it was sent to: a name found on another zone landed there. */
  namesSent: Map<string, ModelZone>;
  created: number;
  /** What the sequence did, one line per operation, for the failure message. */
  steps: string[];
}

export function emptyModel(): ZoneModel {
  return { live: [], deleted: [], namesSent: new Map(), created: 0, steps: [] };
}

/** A zone the sequence creates, labelled A, B, ... Z, then Z26, Z27...: names a reader can follow. */
export function newZone(model: ZoneModel, name: string, coverage: unknown, askedStatus?: string): ModelZone {
  const n = model.created++;
  return {
    label: n < 26 ? String.fromCharCode(65 + n) : `Z${n}`,
    createdAs: name,
    expected: { name: [name], coverage: [coverage], status: ['draft'] },
    askedStatus,
    updated: false,
    booked: false,
    seen: false,
    showsStatus: true,
    since: nothingSince(),
  };
}

export function expects(zone: ModelZone, field: Field, value: unknown): boolean {
  return zone.expected[field].some((candidate) => jsonEqual(candidate, value));
}
