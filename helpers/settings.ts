// Every setting the suite reads, described once, as data: type and bounds, default, help, and whether a
// shop profile may hold it. The validator (config.ts), the profile and its schema (shop-profile.ts),
// --help, .env.example and the README's table all read this list, so none can drift from another.

import { canonicalJson } from './json.ts';
import { SPEC_VERSION } from './rules.ts';

export type Envelope = 'wrapped' | 'bare';
export type Paging = 'link' | 'page' | 'cursor';

/** Why a value cannot be used, or undefined when it can. */
type Check<Value> = (value: Value) => string | undefined;

/** How a setting's value is read and checked; a shop profile holds it in the JSON shape of its kind. */
export type SettingType =
  | { kind: 'text'; check?: Check<string> }
  /** A shell command, which may span lines. */
  | { kind: 'command' }
  /** One of the choices; `meaning` glosses those whose name says too little, such as 1. */
  | { kind: 'choice'; choices: readonly string[]; meaning?: Record<string, string> }
  /** Whole or not, from min to max; where the default is empty, `empty` says what empty means. */
  | { kind: 'number'; whole: boolean; min: number; max: number; unit?: string; empty?: string }
  | { kind: 'names'; check?: Check<string[]> }
  /** Pairs separated by commas, each `spelled` as name=value is. */
  | { kind: 'pairs'; spelled: string }
  /** JSON of one shape, which may be laid out over lines; `mustBe` is what a value of another shape is told. */
  | { kind: 'json'; shape: 'array' | 'object'; mustBe: string; check?: Check<unknown> };

/** A shop profile may hold it, under profileKey(name); or why one never does. Every setting says which. */
type ProfileSide = { inAProfile: true } | { notInAProfile: string };

type SettingEntry = ProfileSide & {
  /** Empty unless it says. */
  default?: string;
  help: string;
  /** How its value is read and checked: one line of text unless it says otherwise. */
  type?: SettingType;
  /** It makes sense only for a shop: set without ZONES_BASE_URL, it is a slip, not a choice. */
  onlyWithAShop?: true;
};

export type Setting = SettingEntry & { name: SettingName; default: string };

/** Text that `pattern` matches whole; other text is told what it `mustBe`. */
const matching = (pattern: RegExp, mustBe: string): SettingType => ({
  kind: 'text',
  check: (text) => (pattern.test(text) ? undefined : `${mustBe} (got "${text}")`),
});

/** What a header name, and so an auth scheme, is made of (a token of HTTP). */
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";

/** Envelope keys and the cursor field are dotted paths into a JSON body: each segment names a member. */
const DOTTED_PATH = matching(/^[^.]+(\.[^.]+)*$/, 'must be a key or dotted path such as data or meta.next_cursor');

function statusesProblem(statuses: string[]): string | undefined {
  if (!statuses.includes('draft') || statuses.length < 2)
    return `must contain draft and at least one other status (got "${statuses.join(',')}")`;
  return new Set(statuses).size === statuses.length ? undefined : 'must not repeat a status';
}

const COVERAGE_SHAPE = 'a JSON array of at least two coverage values';

function coverageSamplesProblem(samples: unknown): string | undefined {
  const texts = (samples as unknown[]).map(canonicalJson);
  if (texts.length < 2) return `must be ${COVERAGE_SHAPE}`;
  return new Set(texts).size === texts.length ? undefined : 'must hold distinct values';
}

/** The fields of a zone the specification lets a client set; the suite sends them itself. */
export const SETTABLE_FIELDS: readonly string[] = ['name', 'coverage', 'status'];

/** The suite's own fields are not for ZONES_EXTRA_FIELDS: a value there would quietly change every check. */
function extraFieldsProblem(fields: unknown): string | undefined {
  const own = Object.keys(fields as object).filter((key) => SETTABLE_FIELDS.includes(key));
  return own.length === 0 ? undefined : `must not set ${own.join(', ')}: the suite sends those itself`;
}

/** fast-check takes a 32-bit seed. */
export const SEED_RANGE = 2 ** 31;

/** Why the model-based suite's budget stays out of a profile. */
const MODEL_BUDGET = "how long the model-based suite searches is one run's budget, not the shop's style";

const TABLE = {
  ZONES_BASE_URL: {
    help: 'Address of the shop, e.g. https://staging.example.com, with no user name or password in it (the credential goes in ZONES_ACCESS_TOKEN). Unset: start the embedded reference on 127.0.0.1, certify it, stop it. The shop is reached through HTTPS_PROXY or HTTP_PROXY (either case) unless NO_PROXY names its host; redirects are never followed.',
    notInAProfile:
      'which shop to certify is the run\'s choice, not the house style\'s: set ZONES_BASE_URL as a variable (a CI variable), so that "no ZONES_BASE_URL" keeps meaning "the embedded reference"',
  },
  ZONES_ACCESS_TOKEN: {
    help: 'The credential. Required when ZONES_BASE_URL is set. Never printed or written to a report.',
    notInAProfile:
      'the token is a secret, and a profile is a file meant to be committed and shared: give it in ZONES_ACCESS_TOKEN (a CI secret)',
    onlyWithAShop: true,
  },
  ZONES_MOCK_BASE_URL: {
    help: 'For npm run drift only: the address of your mock of the shop (json-server, Prism, WireMock...), run through the same scenarios as ZONES_BASE_URL with the same settings, to show where the two differ. Unset: drift cannot run.',
    notInAProfile:
      "which mock drift compares with the shop is the run's choice, not the house style's: set ZONES_MOCK_BASE_URL as a variable",
    onlyWithAShop: true,
  },
  ZONES_MOCK_ACCESS_TOKEN: {
    help: "For npm run drift only: the mock's credential, sent as ZONES_AUTH_HEADER and ZONES_AUTH_SCHEME say. Masked like ZONES_ACCESS_TOKEN everywhere.",
    notInAProfile:
      "the mock's token is a credential too, and a profile holds none: give it in ZONES_MOCK_ACCESS_TOKEN (a CI secret)",
    onlyWithAShop: true,
  },
  ZONES_CA_FILE: {
    help: 'A PEM file of CA certificates to trust for an https:// shop (and an https:// proxy) besides the usual ones and NODE_EXTRA_CA_CERTS: a private CA.',
    notInAProfile: "it is this machine's trust in the shop's certificate: set ZONES_CA_FILE as a variable",
    onlyWithAShop: true,
  },
  ZONES_TLS_INSECURE: {
    type: { kind: 'choice', choices: ['1', '0'], meaning: { 1: "do not verify the shop's certificate" } },
    default: '0',
    help: "Set to 1 to skip verifying the shop's TLS certificate, for a shop with no valid one at all. Every run warns, and the certificate says TLS was not verified.",
    notInAProfile:
      'turning certificate checks off is a decision for one run, never one a shared file makes quietly: set ZONES_TLS_INSECURE=1 as a variable',
    onlyWithAShop: true,
  },
  ZONES_PROFILE: {
    help: "A shop profile: a JSON file holding the settings below that describe the shop's house style, keyed by their names without ZONES_ in lower case (profiles/shopify-style.json, checked against profiles/shop-profile.schema.json). A variable that is set wins over the file. Never in a profile: the token, the base URL, the CA file, TLS_INSECURE, the booked zone, the booking hooks and the reports folder. A relative path is read from the current directory.",
    notInAProfile: 'a profile cannot name another profile',
    onlyWithAShop: true,
  },
  ZONES_AUTH_HEADER: {
    type: matching(new RegExp(`^${TOKEN}$`), 'is not a valid header name'),
    default: 'X-Shopify-Access-Token',
    help: 'Header that carries the credential, e.g. Authorization.',
    inAProfile: true,
  },
  ZONES_AUTH_SCHEME: {
    type: matching(new RegExp(`^(${TOKEN})?$`), 'must be one word such as Bearer'),
    help: 'Scheme before the token in that header; empty sends the bare token, Bearer sends "Bearer <token>".',
    inAProfile: true,
  },
  ZONES_API_VERSION: {
    type: matching(/^[A-Za-z0-9._~-]+$/, 'must be one path segment such as 2026-07'),
    default: SPEC_VERSION,
    help: 'Version segment of the path: /admin/api/<version>/zones.json.',
    inAProfile: true,
  },
  ZONES_STATUS_PARAM: {
    default: 'status',
    help: 'Query parameter of the list filter by publish status.',
    inAProfile: true,
  },
  ZONES_STATUS_FILTER_VALUES: {
    type: { kind: 'pairs', spelled: 'status=value' },
    help: 'When the filter takes other values than the status names records show: status=value pairs, e.g. published=active,draft=unpublished. Unset: the status names.',
    inAProfile: true,
  },
  ZONES_STATUSES: {
    type: { kind: 'names', check: statusesProblem },
    default: 'draft,published',
    help: 'Comma-separated status names; must contain draft and at least one other.',
    inAProfile: true,
  },
  ZONES_ENVELOPE: {
    type: { kind: 'choice', choices: ['wrapped', 'bare'] satisfies Envelope[] },
    default: 'wrapped',
    help: 'wrapped: one zone under ZONES_ZONE_KEY, a list under ZONES_LIST_KEY ({"zone":{...}} and {"zones":[...]} by default); bare: the zone object and a plain array.',
    inAProfile: true,
  },
  ZONES_ZONE_KEY: {
    type: DOTTED_PATH,
    default: 'zone',
    help: 'With ZONES_ENVELOPE=wrapped: where one zone sits in a body, a key or dotted path, e.g. data or data.zone. Create and update bodies are wrapped the same way.',
    inAProfile: true,
  },
  ZONES_LIST_KEY: {
    type: DOTTED_PATH,
    default: 'zones',
    help: 'With ZONES_ENVELOPE=wrapped: where the array of zones sits in a list body, a key or dotted path, e.g. data or data.items.',
    inAProfile: true,
  },
  ZONES_ID_FIELD: {
    default: 'id',
    help: 'Field of a zone record that holds its id (read without loss, sent back exactly).',
    inAProfile: true,
  },
  ZONES_PAGING: {
    type: { kind: 'choice', choices: ['link', 'page', 'cursor'] satisfies Paging[] },
    default: 'link',
    help: 'How a list goes on past its first page. link: the rel="next" URL of the Link header; page: page numbers in ZONES_PAGE_PARAM; cursor: a next cursor in the list body (needs ZONES_ENVELOPE=wrapped).',
    inAProfile: true,
  },
  ZONES_PAGE_PARAM: {
    default: 'page',
    help: 'With ZONES_PAGING=page: the query parameter of the page number. The first request has none, then 2, 3, ...; the list ends at a page that brings no zone not seen already, or at a 404 past the last page.',
    inAProfile: true,
  },
  ZONES_CURSOR_FIELD: {
    type: DOTTED_PATH,
    default: 'next_cursor',
    help: 'With ZONES_PAGING=cursor: where the next cursor sits in a list body, a key or dotted path, e.g. meta.next_cursor. Empty, null or absent: the last page.',
    inAProfile: true,
  },
  ZONES_CURSOR_PARAM: {
    default: 'cursor',
    help: 'With ZONES_PAGING=cursor: the query parameter the cursor is sent back in. A cursor that is a URL (http(s)://... or /...) is followed as it is, on the same host only.',
    inAProfile: true,
  },
  ZONES_PAGE_SIZE: {
    // Past 1000 zones a page a size is more likely a slip than a shop's limit (Shopify-style shops stop at 250).
    type: { kind: 'number', whole: true, min: 1, max: 1000, unit: 'zones a page', empty: "the shop's own page size" },
    help: "Zones a page to ask the shop for, a whole number from 1 to 1000, sent in ZONES_PAGE_SIZE_PARAM with the first page of every list read: fewer pages, so fewer requests, on a shop with many zones (a Shopify-style shop takes limit up to 250). The later pages go on as ZONES_PAGING says: page numbers and cursors are sent beside it, a Link is followed as the shop wrote it. Empty: none is sent, and the shop's own page size applies. A shop that refuses it stops the run in its preflight.",
    inAProfile: true,
  },
  ZONES_PAGE_SIZE_PARAM: {
    default: 'limit',
    help: 'With ZONES_PAGE_SIZE: the query parameter the page size is sent in, e.g. per_page, page_size or pageSize.',
    inAProfile: true,
  },
  ZONES_COVERAGE_SAMPLES: {
    type: { kind: 'json', shape: 'array', mustBe: COVERAGE_SHAPE, check: coverageSamplesProblem },
    default: '[{"countries":["DE","AT"]},{"countries":["FR"],"provinces":["IDF"]}]',
    help: 'JSON array of at least two distinct coverage values; coverage is opaque JSON that must round-trip equal.',
    inAProfile: true,
  },
  ZONES_EXTRA_FIELDS: {
    type: {
      kind: 'json',
      shape: 'object',
      mustBe: 'a JSON object, e.g. {"currency":"EUR"}',
      check: extraFieldsProblem,
    },
    help: 'A JSON object of fields the shop requires in create and update bodies besides name, coverage and status, e.g. {"currency":"EUR"}. Added to every POST and PUT body.',
    inAProfile: true,
  },
  ZONES_BOOKED_ZONE_ID: {
    help: 'For DELETE-02: an existing zone with booking history. The suite only tries to delete it and checks it stays.',
    notInAProfile: 'it names one zone of one shop, not a house style: set ZONES_BOOKED_ZONE_ID as a variable',
    onlyWithAShop: true,
  },
  ZONES_BOOKING_HOOK: {
    type: { kind: 'command' },
    help: 'For DELETE-02: shell command run with the suite environment plus ZONE_ID that gives that zone booking history (exit 0 = done).',
    notInAProfile:
      'it is a shell command run on this machine, which may carry credentials of its own: set ZONES_BOOKING_HOOK as a variable (a CI secret if it holds one)',
    onlyWithAShop: true,
  },
  ZONES_BOOKING_CLEANUP_HOOK: {
    type: { kind: 'command' },
    help: 'Same shape; removes the history so that teardown can delete the zone. Without it the booked zone is left behind and reported.',
    notInAProfile:
      'it is a shell command run on this machine, which may carry credentials of its own: set ZONES_BOOKING_CLEANUP_HOOK as a variable (a CI secret if it holds one)',
    onlyWithAShop: true,
  },
  ZONES_TIMEOUT_MS: {
    type: { kind: 'number', whole: true, min: 100, max: 600_000, unit: 'milliseconds' },
    default: '30000',
    help: 'Time limit of one request, in milliseconds, from sending it to the last byte of the answer (a body still coming at the limit is cut off). A GET that times out or gets no answer is retried; a write is not.',
    inAProfile: true,
  },
  ZONES_OUTAGE_BUDGET_MS: {
    // Under a second no back-off fits in it; past an hour a nightly job is better told and run again.
    type: { kind: 'number', whole: true, min: 1000, max: 3_600_000, unit: 'milliseconds' },
    default: '60000',
    help: 'How long a run waits for a shop that stopped answering (502, 503, 504, a page of a maintenance or sign-in front instead of JSON, no answer at all), in milliseconds from the first such answer, from 1000 to 3600000. GETs are asked again meanwhile, with back-off and any Retry-After kept. Past it the run stops: exit 3, the rules decided before reported, the rest not verified. The preflight waits at most 5 s of it.',
    notInAProfile:
      "how long to wait for a shop that stopped answering is one run's patience (a nightly job's time slot), not the shop's style: set ZONES_OUTAGE_BUDGET_MS as a variable",
  },
  ZONES_MAX_BODY_BYTES: {
    // Parsed, a zone list takes some 7 times its size (8 MiB: 60 MiB of heap): past 32 MiB, hundreds of MiB.
    type: { kind: 'number', whole: true, min: 1024, max: 32 * 1024 * 1024, unit: 'bytes' },
    default: '8388608',
    help: 'Largest answer body the suite reads, in bytes (default 8 MiB, from 1024 to 33554432). A body past it is not read on; the check it belonged to is not verified, or the run stops in its preflight.',
    inAProfile: true,
  },
  ZONES_MAX_RPS: {
    type: { kind: 'number', whole: false, min: 0, max: 1000, unit: 'requests per second' },
    default: '0',
    help: 'Pace requests to at most this many per second from the first request (fractions allowed); 0 means no pace of its own. 429 answers are always waited out, and the pace is learned from them and from rate-limit headers.',
    inAProfile: true,
  },
  ZONES_CONSISTENCY_TIMEOUT_MS: {
    type: { kind: 'number', whole: true, min: 0, max: 600_000, unit: 'milliseconds' },
    default: '0',
    help: 'How long list checks may re-read until a write shows (read-after-write lag); 0 means lists must be current at once.',
    inAProfile: true,
  },
  ZONES_MODEL_RUNS: {
    type: { kind: 'number', whole: true, min: 0, max: 1000, unit: 'sequences' },
    default: '20',
    help: 'The model-based suite (suites/model.test.ts): how many random sequences of operations it may run, each from no zone of its own; the request budget ends the search first as a rule. 0 leaves the suite out.',
    notInAProfile: `${MODEL_BUDGET}: set ZONES_MODEL_RUNS as a variable`,
  },
  ZONES_MODEL_STEPS: {
    type: { kind: 'number', whole: true, min: 1, max: 1000, unit: 'operations' },
    default: '200',
    help: 'The longest sequence of the model-based suite, in operations (create, update, delete, list read); fast-check draws each length up to it.',
    notInAProfile: `${MODEL_BUDGET}: set ZONES_MODEL_STEPS as a variable`,
  },
  ZONES_MODEL_MAX_REQUESTS: {
    type: { kind: 'number', whole: true, min: 10, max: 100_000, unit: 'requests' },
    default: '120',
    help: 'Requests the model-based suite may send while it searches (a minute behind 2 requests per second); past it no operation starts, and the one under way and the clean-up finish.',
    notInAProfile: `${MODEL_BUDGET}: set ZONES_MODEL_MAX_REQUESTS as a variable`,
  },
  ZONES_MODEL_SHRINK_REQUESTS: {
    type: { kind: 'number', whole: true, min: 0, max: 100_000, unit: 'requests' },
    default: '600',
    help: 'Requests the model-based suite may send on top, once a sequence fails, to shrink it to the shortest that still breaks the same rule; 0 reports it as found.',
    notInAProfile: `${MODEL_BUDGET}: set ZONES_MODEL_SHRINK_REQUESTS as a variable`,
  },
  ZONES_MODEL_SEED: {
    type: { kind: 'number', whole: true, min: -SEED_RANGE, max: SEED_RANGE - 1, empty: 'a new seed each run' },
    help: 'The seed of the model-based sequences, a whole number. Every report names the one the run had; setting it (or npm run conformance -- --seed=N) replays the same sequences. Empty: a new seed each run.',
    notInAProfile:
      "a seed replays one night's sequences, which is a choice for one run: set ZONES_MODEL_SEED as a variable, or --seed",
  },
  ZONES_REPORTS_DIR: {
    default: 'reports',
    help: 'Where the reports go (conformance.html, conformance.json, conformance.md, summary.md, junit.xml, allure-results/), the ledgers, and the nights history conformance-history.jsonl, which runs add to.',
    notInAProfile:
      "where a run writes is the caller's choice, and a run that cannot start writes there before any profile is read: set ZONES_REPORTS_DIR as a variable",
  },
} satisfies Record<string, SettingEntry>;

export type SettingName = keyof typeof TABLE;

/** Every setting, in the order --help, .env.example and the README list them. */
export const SETTINGS = Object.entries(TABLE).map(([name, setting]) => ({ name, default: '', ...setting }) as Setting);

/** Settings that no longer have an effect, with why: a run that still sets one says so and goes on. */
export const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  ZONES_CONCURRENCY:
    "no longer has an effect: tests run one at a time against a shop, so that none can meet another's zones in the list or take an id another just freed; to go faster, certify several shops side by side (a CI job per shop)",
};

/** The default of a setting, for code that must fill in one the user cannot have set. */
export function settingDefault(name: SettingName): string {
  return (TABLE[name] as SettingEntry).default ?? '';
}

/** The text of .env.example, made from the list above; a self-test keeps the committed file equal to it. */
export function renderEnvExample(): string {
  const lines = [
    '# zones-conformance settings. Copy to .env and set what differs from the defaults.',
    '# The process environment wins over this file. Every setting is optional unless it says otherwise.',
    '# Regenerate with: npm run env-example',
    '',
  ];
  for (const doc of SETTINGS) {
    const quoted = /[\s"#]/.test(doc.default) ? `'${doc.default}'` : doc.default;
    lines.push(
      `# ${doc.help}`,
      `# default: ${doc.default === '' ? '(empty)' : doc.default}`,
      `# ${doc.name}=${quoted}`,
      '',
    );
  }
  return lines.join('\n');
}
