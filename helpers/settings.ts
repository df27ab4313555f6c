// Every setting the suite reads, as data: --help, .env.example and the validator all use this list,
// so a setting cannot exist in one place and be missing from another.

import { SPEC_VERSION } from './rules.ts';

export interface SettingDoc {
  name: string;
  default: string;
  help: string;
}

const DEFAULT_COVERAGE_SAMPLES = '[{"countries":["DE","AT"]},{"countries":["FR"],"provinces":["IDF"]}]';

export const settingDocs: readonly SettingDoc[] = [
  {
    name: 'ZONES_BASE_URL',
    default: '',
    help: 'Address of the shop, e.g. https://staging.example.com, with no user name or password in it (the credential goes in ZONES_ACCESS_TOKEN). Unset: start the embedded reference on 127.0.0.1, certify it, stop it. The shop is reached through HTTPS_PROXY or HTTP_PROXY (either case) unless NO_PROXY names its host; redirects are never followed.',
  },
  {
    name: 'ZONES_ACCESS_TOKEN',
    default: '',
    help: 'The credential. Required when ZONES_BASE_URL is set. Never printed or written to a report.',
  },
  {
    name: 'ZONES_MOCK_BASE_URL',
    default: '',
    help: 'For npm run drift only: the address of your mock of the shop (json-server, Prism, WireMock...), run through the same scenarios as ZONES_BASE_URL with the same settings, to show where the two differ. Unset: drift cannot run.',
  },
  {
    name: 'ZONES_MOCK_ACCESS_TOKEN',
    default: '',
    help: "For npm run drift only: the mock's credential, sent as ZONES_AUTH_HEADER and ZONES_AUTH_SCHEME say. Masked like ZONES_ACCESS_TOKEN everywhere.",
  },
  {
    name: 'ZONES_CA_FILE',
    default: '',
    help: 'A PEM file of CA certificates to trust for an https:// shop (and an https:// proxy) besides the usual ones and NODE_EXTRA_CA_CERTS: a private CA.',
  },
  {
    name: 'ZONES_TLS_INSECURE',
    default: '0',
    help: "Set to 1 to skip verifying the shop's TLS certificate, for a shop with no valid one at all. Every run warns, and the certificate says TLS was not verified.",
  },
  {
    name: 'ZONES_PROFILE',
    default: '',
    help: "A shop profile: a JSON file holding the settings below that describe the shop's house style, keyed by their names without ZONES_ in lower case (profiles/shopify-style.json, checked against profiles/shop-profile.schema.json). A variable that is set wins over the file. Never in a profile: the token, the base URL, the CA file, TLS_INSECURE, the booked zone, the booking hooks and the reports folder. A relative path is read from the current directory.",
  },
  {
    name: 'ZONES_AUTH_HEADER',
    default: 'X-Shopify-Access-Token',
    help: 'Header that carries the credential, e.g. Authorization.',
  },
  {
    name: 'ZONES_AUTH_SCHEME',
    default: '',
    help: 'Scheme before the token in that header; empty sends the bare token, Bearer sends "Bearer <token>".',
  },
  {
    name: 'ZONES_API_VERSION',
    default: SPEC_VERSION,
    help: 'Version segment of the path: /admin/api/<version>/zones.json.',
  },
  { name: 'ZONES_STATUS_PARAM', default: 'status', help: 'Query parameter of the list filter by publish status.' },
  {
    name: 'ZONES_STATUS_FILTER_VALUES',
    default: '',
    help: 'When the filter takes other values than the status names records show: status=value pairs, e.g. published=active,draft=unpublished. Unset: the status names.',
  },
  {
    name: 'ZONES_STATUSES',
    default: 'draft,published',
    help: 'Comma-separated status names; must contain draft and at least one other.',
  },
  {
    name: 'ZONES_ENVELOPE',
    default: 'wrapped',
    help: 'wrapped: one zone under ZONES_ZONE_KEY, a list under ZONES_LIST_KEY ({"zone":{...}} and {"zones":[...]} by default); bare: the zone object and a plain array.',
  },
  {
    name: 'ZONES_ZONE_KEY',
    default: 'zone',
    help: 'With ZONES_ENVELOPE=wrapped: where one zone sits in a body, a key or dotted path, e.g. data or data.zone. Create and update bodies are wrapped the same way.',
  },
  {
    name: 'ZONES_LIST_KEY',
    default: 'zones',
    help: 'With ZONES_ENVELOPE=wrapped: where the array of zones sits in a list body, a key or dotted path, e.g. data or data.items.',
  },
  {
    name: 'ZONES_ID_FIELD',
    default: 'id',
    help: 'Field of a zone record that holds its id (read without loss, sent back exactly).',
  },
  {
    name: 'ZONES_PAGING',
    default: 'link',
    help: 'How a list goes on past its first page. link: the rel="next" URL of the Link header; page: page numbers in ZONES_PAGE_PARAM; cursor: a next cursor in the list body (needs ZONES_ENVELOPE=wrapped).',
  },
  {
    name: 'ZONES_PAGE_PARAM',
    default: 'page',
    help: 'With ZONES_PAGING=page: the query parameter of the page number. The first request has none, then 2, 3, ...; the list ends at a page that brings no zone not seen already, or at a 404 past the last page.',
  },
  {
    name: 'ZONES_CURSOR_FIELD',
    default: 'next_cursor',
    help: 'With ZONES_PAGING=cursor: where the next cursor sits in a list body, a key or dotted path, e.g. meta.next_cursor. Empty, null or absent: the last page.',
  },
  {
    name: 'ZONES_CURSOR_PARAM',
    default: 'cursor',
    help: 'With ZONES_PAGING=cursor: the query parameter the cursor is sent back in. A cursor that is a URL (http(s)://... or /...) is followed as it is, on the same host only.',
  },
  {
    name: 'ZONES_PAGE_SIZE',
    default: '',
    help: "Zones a page to ask the shop for, a whole number from 1 to 1000, sent in ZONES_PAGE_SIZE_PARAM with the first page of every list read: fewer pages, so fewer requests, on a shop with many zones (a Shopify-style shop takes limit up to 250). The later pages go on as ZONES_PAGING says: page numbers and cursors are sent beside it, a Link is followed as the shop wrote it. Empty: none is sent, and the shop's own page size applies. A shop that refuses it stops the run in its preflight.",
  },
  {
    name: 'ZONES_PAGE_SIZE_PARAM',
    default: 'limit',
    help: 'With ZONES_PAGE_SIZE: the query parameter the page size is sent in, e.g. per_page, page_size or pageSize.',
  },
  {
    name: 'ZONES_COVERAGE_SAMPLES',
    default: DEFAULT_COVERAGE_SAMPLES,
    help: 'JSON array of at least two distinct coverage values; coverage is opaque JSON that must round-trip equal.',
  },
  {
    name: 'ZONES_EXTRA_FIELDS',
    default: '',
    help: 'A JSON object of fields the shop requires in create and update bodies besides name, coverage and status, e.g. {"currency":"EUR"}. Added to every POST and PUT body.',
  },
  {
    name: 'ZONES_BOOKED_ZONE_ID',
    default: '',
    help: 'For DELETE-02: an existing zone with booking history. The suite only tries to delete it and checks it stays.',
  },
  {
    name: 'ZONES_BOOKING_HOOK',
    default: '',
    help: 'For DELETE-02: shell command run with the suite environment plus ZONE_ID that gives that zone booking history (exit 0 = done).',
  },
  {
    name: 'ZONES_BOOKING_CLEANUP_HOOK',
    default: '',
    help: 'Same shape; removes the history so that teardown can delete the zone. Without it the booked zone is left behind and reported.',
  },
  {
    name: 'ZONES_TIMEOUT_MS',
    default: '30000',
    help: 'Time limit of one request, in milliseconds, from sending it to the last byte of the answer (a body still coming at the limit is cut off). A GET that times out or gets no answer is retried; a write is not.',
  },
  {
    name: 'ZONES_OUTAGE_BUDGET_MS',
    default: '60000',
    help: 'How long a run waits for a shop that stopped answering (502, 503, 504, a page of a maintenance or sign-in front instead of JSON, no answer at all), in milliseconds from the first such answer, from 1000 to 3600000. GETs are asked again meanwhile, with back-off and any Retry-After kept. Past it the run stops: exit 3, the rules decided before reported, the rest not verified. The preflight waits at most 5 s of it.',
  },
  {
    name: 'ZONES_MAX_BODY_BYTES',
    default: '8388608',
    help: 'Largest answer body the suite reads, in bytes (default 8 MiB, from 1024 to 33554432). A body past it is not read on; the check it belonged to is not verified, or the run stops in its preflight.',
  },
  {
    name: 'ZONES_MAX_RPS',
    default: '0',
    help: 'Pace requests to at most this many per second from the first request (fractions allowed); 0 means no pace of its own. 429 answers are always waited out, and the pace is learned from them and from rate-limit headers.',
  },
  {
    name: 'ZONES_CONSISTENCY_TIMEOUT_MS',
    default: '0',
    help: 'How long list checks may re-read until a write shows (read-after-write lag); 0 means lists must be current at once.',
  },
  {
    name: 'ZONES_MODEL_RUNS',
    default: '20',
    help: 'The model-based suite (suites/model.test.ts): how many random sequences of operations it may run, each from no zone of its own; the request budget ends the search first as a rule. 0 leaves the suite out.',
  },
  {
    name: 'ZONES_MODEL_STEPS',
    default: '200',
    help: 'The longest sequence of the model-based suite, in operations (create, update, delete, list read); fast-check draws each length up to it.',
  },
  {
    name: 'ZONES_MODEL_MAX_REQUESTS',
    default: '120',
    help: 'Requests the model-based suite may send while it searches (a minute behind 2 requests per second); past it no operation starts, and the one under way and the clean-up finish.',
  },
  {
    name: 'ZONES_MODEL_SHRINK_REQUESTS',
    default: '600',
    help: 'Requests the model-based suite may send on top, once a sequence fails, to shrink it to the shortest that still breaks the same rule; 0 reports it as found.',
  },
  {
    name: 'ZONES_MODEL_SEED',
    default: '',
    help: 'The seed of the model-based sequences, a whole number. Every report names the one the run had; setting it (or npm run conformance -- --seed=N) replays the same sequences. Empty: a new seed each run.',
  },
  {
    name: 'ZONES_REPORTS_DIR',
    default: 'reports',
    help: 'Where the reports go (conformance.html, conformance.json, conformance.md, summary.md, junit.xml, allure-results/), the ledgers, and the nights history conformance-history.jsonl, which runs add to.',
  },
];

export const knownSettingNames = new Set(settingDocs.map((doc) => doc.name));

/**
 * Settings that once were and no longer have an effect, with why. A run that still sets one says so
 * in one line and goes on: a nightly job is not stopped by a variable left over from an older version.
 */
export const RETIRED_SETTINGS: Readonly<Record<string, string>> = {
  ZONES_CONCURRENCY:
    "no longer has an effect: tests run one at a time against a shop, so that none can meet another's zones in the list or take an id another just freed; to go faster, certify several shops side by side (a CI job per shop)",
};

/** The default of a setting, for code that must fill in one the user cannot have set. */
export function settingDefault(name: string): string {
  const doc = settingDocs.find((candidate) => candidate.name === name);
  if (!doc) throw new Error(`${name} is not a setting`);
  return doc.default;
}

/** The text of .env.example, made from the list above; a self-test keeps the committed file equal to it. */
export function renderEnvExample(): string {
  const lines = [
    '# zones-conformance settings. Copy to .env and set what differs from the defaults.',
    '# The process environment wins over this file. Every setting is optional unless it says otherwise.',
    '# Regenerate with: npm run env-example',
    '',
  ];
  for (const doc of settingDocs) {
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
