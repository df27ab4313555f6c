// Mutants of the reference, each with exactly one defect. The suite is only worth trusting if it
// fails every one of them on the rules listed in `breaks`, and on no other rule.

export interface Fault {
  name: string;
  breaks: string[];
  description: string;
  /** Only a sequence of operations shows it: every example test passes, and the model-based suite must catch it. */
  sequence: boolean;
}

interface FaultEntry {
  readonly breaks: readonly string[];
  readonly description: string;
  readonly sequence?: true;
}

const catalogue = {
  'list-open': {
    breaks: ['AUTH-01'],
    description:
      'GET without a filter and without any credential answers 200 with the zones; a wrong credential is still refused.',
  },
  'filtered-list-open': {
    breaks: ['AUTH-01'],
    description:
      'GET with a status filter and without any credential answers 200 with the zones; the unfiltered list is still refused.',
  },
  'list-refusal-leaks-zones': {
    breaks: ['AUTH-01'],
    description: 'GET without a credential is answered 401, but the body carries the zone list.',
  },
  'create-open': {
    breaks: ['AUTH-02'],
    description: 'POST without any credential creates the zone; a wrong credential is still refused.',
  },
  'update-open': {
    breaks: ['AUTH-03'],
    description: 'PUT without any credential updates the zone; a wrong credential is still refused.',
  },
  'delete-open': {
    breaks: ['AUTH-04'],
    description: 'DELETE without any credential deletes the zone; a wrong credential is still refused.',
  },
  'unauth-200-error-body': {
    breaks: ['AUTH-01', 'AUTH-02', 'AUTH-03', 'AUTH-04'],
    description: 'A call without a credential is answered 200 with {"errors":"unauthorized"} and has no effect.',
  },
  'refused-create-still-creates': {
    breaks: ['AUTH-05'],
    description: 'POST without a credential is answered 401 but the zone is created anyway.',
  },
  'refused-update-still-applies': {
    breaks: ['AUTH-05'],
    description: 'PUT without a credential is answered 401 but the update is applied anyway.',
  },
  'refused-delete-still-deletes': {
    breaks: ['AUTH-05'],
    description: 'DELETE without a credential is answered 401 but the zone is deleted anyway.',
  },
  'wrong-token-create-still-creates': {
    breaks: ['AUTH-05'],
    description: 'POST with a wrong credential is answered 401 but the zone is created anyway.',
  },
  'wrong-token-update-still-applies': {
    breaks: ['AUTH-05'],
    description: 'PUT with a wrong credential is answered 401 but the update is applied anyway.',
  },
  'wrong-token-delete-still-deletes': {
    breaks: ['AUTH-05'],
    description: 'DELETE with a wrong credential is answered 401 but the zone is deleted anyway.',
  },
  'token-format-only': {
    breaks: ['AUTH-06'],
    description: 'Any credential as long as the real token is accepted: only its format is checked.',
  },
  'any-token-accepted': {
    breaks: ['AUTH-06'],
    description: 'Any non-empty credential is accepted; only a missing one is refused.',
  },
  'wrong-token-accepted-on-list': {
    breaks: ['AUTH-06'],
    description: 'GET accepts a wrong credential; the other endpoints refuse it.',
  },
  'wrong-token-accepted-on-create': {
    breaks: ['AUTH-06'],
    description: 'POST accepts a wrong credential; the other endpoints refuse it.',
  },
  'wrong-token-accepted-on-update': {
    breaks: ['AUTH-06'],
    description: 'PUT accepts a wrong credential; the other endpoints refuse it.',
  },
  'wrong-token-accepted-on-delete': {
    breaks: ['AUTH-06'],
    description: 'DELETE accepts a wrong credential; the other endpoints refuse it.',
  },
  'create-drops-coverage': {
    breaks: ['CREATE-01'],
    description: 'POST stores an empty coverage instead of the one sent.',
  },
  'create-forgets-coverage': {
    breaks: ['CREATE-01'],
    description:
      'POST stores no coverage at all: the record shows none until an update sets one, while other zones show theirs.',
  },
  'create-truncates-name': {
    breaks: ['CREATE-01'],
    description: 'POST stores only the first 8 characters of the name.',
  },
  'create-unlisted': {
    breaks: ['CREATE-01'],
    description: 'A new zone is missing from every list until it has been updated once.',
  },
  'create-as-published': {
    breaks: ['CREATE-02'],
    description: 'A new zone gets the second status of the style instead of draft.',
  },
  'create-without-status': {
    breaks: ['CREATE-02', 'CREATE-03'],
    description:
      'POST stores no status at all, as some mock servers do: the record shows none until an update sets one.',
  },
  'create-honours-body-status': {
    breaks: ['CREATE-03'],
    description: 'A valid status in the POST body is applied to the new zone.',
  },
  'list-hides-non-draft': { breaks: ['LIST-01'], description: 'GET without a filter returns only the draft zones.' },
  'filter-ignored': { breaks: ['LIST-02'], description: 'The status filter is ignored: every zone is returned.' },
  'filter-only-draft': {
    breaks: ['LIST-02'],
    description: 'The status filter works for draft only; any other status returns every zone.',
  },
  'filter-draft-ignored': {
    breaks: ['LIST-02'],
    description: 'The status filter works for every status but draft, which returns every zone.',
  },
  'filter-drops-last-status': {
    breaks: ['LIST-02'],
    description: 'Filtering by the last status of the style returns an empty list.',
  },
  'update-ignores-name': { breaks: ['UPDATE-01'], description: 'PUT leaves the name unchanged.' },
  'update-echoes-name': { breaks: ['UPDATE-01'], description: 'PUT answers with the new name but stores the old one.' },
  'update-ignores-coverage': { breaks: ['UPDATE-02'], description: 'PUT leaves the coverage unchanged.' },
  'update-echoes-coverage': {
    breaks: ['UPDATE-02'],
    description: 'PUT answers with the new coverage but stores the old one.',
  },
  'update-ignores-status': { breaks: ['UPDATE-03'], description: 'PUT leaves the status unchanged.' },
  'update-status-unfiltered': {
    breaks: ['UPDATE-03'],
    description:
      'PUT stores and shows the new status, but the filter keeps using the status the zone was created with.',
  },
  'update-same-name-too': {
    breaks: ['UPDATE-04'],
    description: 'PUT is also applied to every other zone that had the same name.',
  },
  'delete-keeps-zone': { breaks: ['DELETE-01'], description: 'DELETE answers 200 but keeps the zone.' },
  'delete-refuses-all': {
    breaks: ['DELETE-01'],
    description: 'Every DELETE of an existing zone is answered 422, booked or not.',
  },
  'delete-soft': {
    breaks: ['DELETE-01'],
    description: 'A deleted zone vanishes from the lists, but PUT and DELETE on its id still answer 200.',
  },
  'put-upserts': {
    breaks: ['DELETE-01'],
    description:
      'PUT on an id that is gone creates the zone again under that id (create or replace), as some mock servers do.',
  },
  'delete-ignores-bookings': { breaks: ['DELETE-02'], description: 'A zone with booking history is deleted.' },
  'delete-booked-500': {
    breaks: ['DELETE-02'],
    description: 'DELETE of a zone with booking history answers 500; the zone is kept.',
  },
  'delete-booked-200-error-body': {
    breaks: ['DELETE-02'],
    description: 'DELETE of a zone with booking history answers 200 with an errors body; the zone is kept.',
  },
  'list-path-without-json': {
    breaks: ['PATH-01'],
    description: 'GET answers only at zones without the .json suffix; zones.json refuses it with 405.',
  },
  'create-path-without-json': {
    breaks: ['PATH-01'],
    description: 'POST answers only at zones without the .json suffix; zones.json refuses it with 405.',
  },
  'update-path-without-json': {
    breaks: ['PATH-01'],
    description: 'PUT answers only at zones/{id} without the .json suffix; zones/{id}.json gives 404.',
  },
  'delete-path-without-json': {
    breaks: ['PATH-01'],
    description: 'DELETE answers only at zones/{id} without the .json suffix; zones/{id}.json gives 404.',
  },
  // Defects that only a sequence shows, each where an example test looks once and moves on.
  'filter-cache-stale': {
    breaks: ['LIST-02'],
    description:
      "The filtered list is answered from a cache of each filter's zones that a create clears, but a status change does not.",
    sequence: true,
  },
  'update-undoes-rename': {
    breaks: ['UPDATE-01'],
    description:
      'An update that leaves the name as it is puts back the name the zone had before its last rename; the answer shows the name sent.',
    sequence: true,
  },
  'create-restores-deleted': {
    breaks: ['DELETE-01'],
    description: 'A create puts the zone deleted last back in the store, under its old id, as a lost write would.',
    sequence: true,
  },
  'update-lands-on-next-zone': {
    breaks: ['UPDATE-04'],
    description:
      'Once the shop holds four zones, an update of any zone but the newest lands on the zone created after it; the answer shows the addressed zone changed.',
    sequence: true,
  },
} as const satisfies Record<string, FaultEntry>;

export type FaultName = keyof typeof catalogue;

export const faults: Fault[] = Object.entries(catalogue).map(([name, entry]: [string, FaultEntry]) => ({
  name,
  breaks: [...entry.breaks],
  description: entry.description,
  sequence: entry.sequence === true,
}));

export function findFault(name: string): Fault | undefined {
  return faults.find((fault) => fault.name === name);
}

export function resolveFault(name: string | undefined): Fault | undefined {
  if (name === undefined || name === '') return undefined;
  const found = findFault(name);
  if (!found) throw new Error(`unknown fault "${name}"; known faults: ${faults.map((fault) => fault.name).join(', ')}`);
  return found;
}

/** The one question the server asks at each point where a mutant differs from the reference. */
export function has(fault: Fault | undefined, name: FaultName): boolean {
  return fault?.name === name;
}
