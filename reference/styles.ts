// Real shops differ in how they spell the same interface. Each style is one plausible spelling, so the
// suite can be proven against more than the one it was written with.

/** max-plus-one: small integers from 1, the highest held plus one, so a deleted id comes back. */
export type IdStyle = 'number' | 'string' | 'big-number' | 'max-plus-one';

/** How a style splits its list into pages of `size` zones. */
export type ListPaging =
  /** ?<param>=N, from 1; no parameter is the first page. Past the last page: an empty list. */
  | { kind: 'page'; param: string; size: number }
  /** The list body names the next page at the dotted path `field` (null on the last page); it goes back as ?<param>=. Wrapped envelope only. */
  | { kind: 'cursor'; field: string; param: string; size: number };

export interface HouseStyle {
  name: string;
  authHeader: string;
  authScheme: string;
  statuses: string[];
  statusParam: string;
  envelope: 'wrapped' | 'bare';
  /** With the wrapped envelope: dotted paths of one zone and of a list's array; zone and zones when absent. */
  zoneKey?: string;
  listKey?: string;
  /** Absent: one answer holds every zone. */
  paging?: ListPaging;
  idField: string;
  idStyle: IdStyle;
  /** Only for string ids: opaque 'zn_…' tokens (the default) or UUIDs. */
  stringIdShape?: 'prefixed' | 'uuid';
  /** PUT replaces the record: name, coverage and status must all be sent. */
  putReplaces?: boolean;
  /** 'empty': a create answers 201 with no body, so the client finds its zone in the list. */
  createAnswer?: 'zone' | 'empty';
  /** What the list filter takes for a status, where that differs from the status name. */
  filterValues?: Record<string, string>;
  /** The status moves allowed, from each status; any move when absent. */
  moves?: Record<string, string[]>;
  /** Fields a create must carry besides name and coverage, with a value the style accepts. */
  requiredOnCreate?: Record<string, unknown>;
  /**
   * 'regions': create and update validate coverage against the shop's own schema, exactly
   * {"regions": [non-empty strings]}, and refuse any other shape with 422, as schema-driven mocks do.
   */
  coverageSchema?: 'regions';
  /** DELETE is idempotent: deleting a zone that is gone answers 204, as it would have the first time. */
  idempotentDelete?: boolean;
  /** Coverage values the style accepts: what a client of a schema-checked style must be told to send. */
  coverageExamples?: unknown[];
  /** Where the style's status codes depart from the profile's 201 create, 200 delete, 401 and 422 (booked, invalid). */
  codes?: { created?: number; deleted?: 200 | 204; unauthenticated?: number; booked?: number; invalid?: number };
  /**
   * The top-level key of every error body: `errors` (Shopify's) when absent, `error` as many mocks
   * write it. A client that reads one finds nothing in the other.
   */
  errorKey?: string;
  /** The Content-Type of every JSON answer, where the style does not send the usual application/json. */
  contentType?: string;
  /**
   * Fields every zone carries besides the documented ones, with their values: a mock's defaults. A string value is a
   * template: {id} becomes the zone's id, {now} the time of the answer (a gid, a synced_at).
   */
  extraZoneFields?: Record<string, unknown>;
  /** The version segment of the path, /admin/api/<version>/zones.json: 2026-07 when absent. */
  apiVersion?: string;
  /** A bucket of `burst` requests refilled at `perSecond`: past it, 429 with Retry-After, as a shop's limit. */
  rateLimit?: { burst: number; perSecond: number };
  /** Milliseconds every answer of the zone API waits before it goes, to rehearse a slow shop. */
  latencyMs?: number;
  /** The list answers an X-Total-Count header with the number of zones listed, as json-server does. */
  totalCountHeader?: boolean;
  /** A filter by a status the style does not know: an empty list (the default) or refused with 400. */
  unknownStatusFilter?: 'empty' | 'refused';
}

export const houseStyles: Record<string, HouseStyle> = {
  default: {
    name: 'default',
    authHeader: 'X-Shopify-Access-Token',
    authScheme: '',
    statuses: ['draft', 'published'],
    statusParam: 'status',
    envelope: 'wrapped',
    idField: 'id',
    idStyle: 'number',
  },
  'bearer-bare': {
    name: 'bearer-bare',
    authHeader: 'Authorization',
    authScheme: 'Bearer',
    statuses: ['draft', 'active', 'archived'],
    statusParam: 'publish_status',
    envelope: 'bare',
    idField: 'id',
    idStyle: 'string',
  },
  'big-ids': {
    name: 'big-ids',
    authHeader: 'X-Api-Key',
    authScheme: '',
    statuses: ['draft', 'live'],
    statusParam: 'state',
    envelope: 'wrapped',
    idField: 'zone_id',
    idStyle: 'big-number',
  },
  'token-scheme': {
    name: 'token-scheme',
    authHeader: 'Authorization',
    authScheme: 'Token',
    statuses: ['draft', 'visible', 'hidden'],
    statusParam: 'filter_status',
    envelope: 'bare',
    idField: 'uuid',
    idStyle: 'string',
    stringIdShape: 'uuid',
  },
  // Strict where the specification is silent: PUT is a full replacement, a create answers with no
  // body, not every status can be reached from draft in one move, and the filter calls draft
  // "unpublished".
  'strict-shop': {
    name: 'strict-shop',
    authHeader: 'Authorization',
    authScheme: 'Bearer',
    statuses: ['draft', 'published', 'archived'],
    statusParam: 'published_status',
    envelope: 'wrapped',
    idField: 'id',
    idStyle: 'big-number',
    putReplaces: true,
    createAnswer: 'empty',
    moves: {
      draft: ['draft', 'published'],
      published: ['published', 'draft', 'archived'],
      archived: ['archived', 'published'],
    },
    filterValues: { draft: 'unpublished' },
  },
  // Correct, with other codes than the profile's wherever the specification shows none: every SHOULD
  // check warns here, and no MUST check may fail. The first status after draft is not reachable from
  // draft in one move, a "move" to the status a zone already has is refused, and a create must name
  // a currency.
  'other-codes': {
    name: 'other-codes',
    authHeader: 'X-Auth-Token',
    authScheme: '',
    statuses: ['draft', 'archived', 'active'],
    statusParam: 'status',
    envelope: 'wrapped',
    idField: 'zone_id',
    idStyle: 'string',
    moves: { draft: ['active'], active: ['draft', 'archived'], archived: ['active'] },
    codes: { created: 200, deleted: 204, unauthenticated: 403, booked: 409 },
    requiredOnCreate: { currency: 'EUR' },
  },
  // What a fake-REST mock server does: ids are the highest held plus one, so the next create after a
  // delete of the newest zone gets the deleted id back; bodies are bare, the token a Bearer.
  'fake-rest': {
    name: 'fake-rest',
    authHeader: 'Authorization',
    authScheme: 'Bearer',
    statuses: ['draft', 'published'],
    statusParam: 'status',
    envelope: 'bare',
    idField: 'id',
    idStyle: 'max-plus-one',
  },
  // A mock generated from a schema of its own: coverage must be exactly {"regions": [...]}, the
  // filter parameter is spelled filter[status], and DELETE is idempotent (a second one answers 204).
  'schema-checked': {
    name: 'schema-checked',
    authHeader: 'X-Api-Key',
    authScheme: '',
    statuses: ['draft', 'enabled'],
    statusParam: 'filter[status]',
    envelope: 'wrapped',
    idField: 'id',
    idStyle: 'string',
    coverageSchema: 'regions',
    coverageExamples: [{ regions: ['EU'] }, { regions: ['US', 'CA'] }],
    idempotentDelete: true,
  },
  // Lists come two zones a page, by page number (?page=2), with no Link header: a client that reads
  // only the first answer misses zones, and one that reads past the end gets an empty page.
  'page-numbers': {
    name: 'page-numbers',
    authHeader: 'Authorization',
    authScheme: 'Bearer',
    statuses: ['draft', 'published'],
    statusParam: 'status',
    envelope: 'bare',
    idField: 'id',
    idStyle: 'number',
    paging: { kind: 'page', param: 'page', size: 2 },
  },
  // {"data": ...} for one zone, for a list and for request bodies; a list names its next page in
  // meta.next_cursor, sent back as ?cursor=. Ids are beyond 2^53, inside the custom envelope.
  'data-envelope': {
    name: 'data-envelope',
    authHeader: 'X-Api-Key',
    authScheme: '',
    statuses: ['draft', 'live', 'retired'],
    statusParam: 'status',
    envelope: 'wrapped',
    zoneKey: 'data',
    listKey: 'data',
    idField: 'id',
    idStyle: 'big-number',
    paging: { kind: 'cursor', field: 'meta.next_cursor', param: 'cursor', size: 2 },
  },
};

export const zoneKeyOf = (style: HouseStyle): string => style.zoneKey ?? 'zone';
export const listKeyOf = (style: HouseStyle): string => style.listKey ?? 'zones';

export function resolveStyle(style: string | HouseStyle | undefined): HouseStyle {
  if (style === undefined) return houseStyles.default!;
  if (typeof style !== 'string') return style;
  const found = Object.hasOwn(houseStyles, style) ? houseStyles[style] : undefined;
  if (!found) throw new Error(`unknown style "${style}"; known styles: ${Object.keys(houseStyles).join(', ')}`);
  return found;
}
