// The rule catalogue, as data. Test titles are built from it (so an unknown id cannot be used),
// the reporter turns it into the certificate, and the meta-test checks every rule has a test.

/**
 * must: documented by the specification; the verdict rests on it. should: a convention of the default profile.
 * may: a robustness probe, how a shop copes with what no correct client sends. A failed SHOULD or MAY only warns.
 */
export type RuleLevel = 'must' | 'should' | 'may';

/** The version the specification documents, in the path after /admin/api/. */
export const SPEC_VERSION = '2026-07';

/** Why a run at another version segment (ZONES_API_VERSION) says nothing about the documented paths. */
export function otherVersionNote(version: string): string | undefined {
  return version === SPEC_VERSION
    ? undefined
    : `checked at version segment ${version} (ZONES_API_VERSION), not the specification's ${SPEC_VERSION}`;
}

export interface Rule {
  id: string;
  level: RuleLevel;
  title: string;
  /**
   * Headings of docs/zone-service-2026-07.md with the numbered item or a quote ("Endpoints rule 4; Zone: it can be
   * changed by update"), or for a SHOULD or MAY rule only "profile: ..." (selftest/catalogue.test.ts checks both).
   */
  source: string;
}

/** Rules of one level, in catalogue order: each id with its title and source. */
type Catalogue = Record<string, [title: string, source: string]>;

const MUST: Catalogue = {
  'AUTH-01': ['a list request without a credential is refused and carries no zone data', 'Authentication 1; Errors 2'],
  'AUTH-02': ['a create request without a credential is refused', 'Authentication 1; Errors 2'],
  'AUTH-03': ['an update request without a credential is refused', 'Authentication 1; Errors 2'],
  'AUTH-04': ['a delete request without a credential is refused', 'Authentication 1; Errors 2'],
  'AUTH-05': [
    'a refused unauthenticated call has no effect',
    'Authentication 1: a request without it is not a valid call',
  ],
  'AUTH-06': ['a wrong credential is refused like a missing one', 'Authentication 1; Errors 2'],
  'CREATE-01': [
    'a create stores the name and coverage sent and the zone appears in the list',
    'Endpoints: POST; What the service does 2',
  ],
  'CREATE-02': ['a new zone is in draft status', 'What the service does 2; States and transitions'],
  'CREATE-03': ['a create never yields a non-draft zone, whatever status the body asks for', 'Endpoints rule 3'],
  'LIST-01': ['the unfiltered list returns every zone of the shop, whatever its status', 'Endpoints rule 2'],
  'LIST-02': ['the list filtered by a status returns exactly the zones in that status', 'What the service does 3'],
  'UPDATE-01': ['an update changes the name', 'Endpoints rule 4'],
  'UPDATE-02': ['an update changes the coverage', 'Endpoints rule 4'],
  'UPDATE-03': [
    'an update changes the status, and the list and the filter reflect it',
    'Endpoints rule 4; Zone: it can be changed by update',
  ],
  'UPDATE-04': ['an update changes only the zone it addresses', 'Endpoints rule 4'],
  'DELETE-01': [
    'a delete of a zone with no booking history removes it permanently',
    'Endpoints rule 5; What the service does 4',
  ],
  'DELETE-02': [
    'a delete of a zone with booking history is refused and the zone stays unchanged',
    'Endpoints rule 5; Errors 1',
  ],
  'PATH-01': ['every operation answers at its documented path under the version segment', 'Endpoints; Versioning 1-2'],
};
const SHOULD: Catalogue = {
  'PROFILE-01': ['bodies match the profile schemas', 'profile: Shopify REST conventions'],
  'PROFILE-02': ['success codes follow the profile', 'profile: 201 create, 200 list and update, 200 or 204 delete'],
  'PROFILE-03': ['refusal codes follow the profile', 'profile: 401 unauthenticated, 422 booked delete, 404 unknown id'],
};
const MAY: Catalogue = {
  'ROBUST-01': [
    'malformed JSON is refused with a 4xx and creates nothing',
    'profile: robustness, a body that is not JSON (RFC 8259) is a client error',
  ],
  'ROBUST-02': [
    'wrong field types, an empty name or a missing body are refused with a 4xx and create nothing',
    'profile: robustness, a name is a non-empty string',
  ],
  'ROBUST-03': ['an unknown zone id on PUT or DELETE answers 404', 'profile: robustness, 404 unknown id'],
  'ROBUST-04': ['a body over 1 MiB is refused with a 4xx', 'profile: robustness, request bodies up to 1 MiB'],
  'ROBUST-05': [
    'an unknown status in the filter is refused with a 4xx or gives an empty list, never a 5xx',
    "profile: robustness, a client's mistake is never a 5xx",
  ],
  'ROBUST-06': [
    'a name in non-Latin scripts and emoji round-trips unchanged',
    'profile: robustness, names are UTF-8 text',
  ],
  'ROBUST-07': [
    'concurrent updates of one zone leave it equal to one of the written versions',
    'profile: robustness, each update is applied whole',
  ],
};

const ofLevel = (level: RuleLevel, catalogue: Catalogue): Rule[] =>
  Object.entries(catalogue).map(([id, [title, source]]) => ({ id, level, title, source }));

export const rules: readonly Rule[] = [...ofLevel('must', MUST), ...ofLevel('should', SHOULD), ...ofLevel('may', MAY)];

/**
 * What of the shop's answers a rule's test reads, set-up included: the status's class (outcome) or code, a zone's
 * fields by role, a list's zones and paging, the error body; never a content type or other field. Drift tells a verdict
 * that differs only with a difference in what its rule reads. selftest/catalogue.test.ts checks each rule is in READS.
 */
export type AnswerPart = 'outcome' | 'code' | 'id' | 'name' | 'coverage' | 'status' | 'list' | 'paging' | 'error';

/** What a test reads that makes a zone to check with: the create's outcome and zone, and the list it is found in. */
const ZONE: AnswerPart[] = ['outcome', 'id', 'name', 'coverage', 'status', 'list', 'paging'];

export const READS: [ids: string, reads: AnswerPart[]][] = [
  ['AUTH-02', ['outcome']],
  ['ROBUST-05', ['outcome', 'list', 'paging']],
  // A refusal read for zone data, and the schemas, read the error body.
  ['AUTH-01 AUTH-06 PROFILE-01', [...ZONE, 'error']],
  ['PROFILE-02 PROFILE-03 ROBUST-03', [...ZONE, 'code']],
  ['AUTH-03 AUTH-04 AUTH-05 CREATE-01 CREATE-02 CREATE-03 LIST-01 LIST-02 UPDATE-01 UPDATE-02 UPDATE-03', ZONE],
  ['UPDATE-04 DELETE-01 DELETE-02 PATH-01 ROBUST-01 ROBUST-02 ROBUST-04 ROBUST-06 ROBUST-07', ZONE],
];

const readsById = new Map(READS.flatMap(([ids, reads]) => ids.split(' ').map((id) => [id, reads] as const)));

export const readsOf = (id: string): readonly AnswerPart[] => readsById.get(id) ?? [];

const byId = new Map(rules.map((rule) => [rule.id, rule]));

export const findRule = (id: string): Rule | undefined => byId.get(id);

export function ruleById(id: string): Rule {
  const rule = byId.get(id);
  if (!rule) throw new Error(`unknown rule id "${id}": add it to helpers/rules.ts first`);
  return rule;
}

/** The id that leads a test title, e.g. "CREATE-02" of "CREATE-02 a new zone is in draft status". */
export function ruleIdOfTitle(title: string): string | undefined {
  const lead = /^([A-Z]+-\d{2})\b/.exec(title)?.[1];
  return lead !== undefined && byId.has(lead) ? lead : undefined;
}
