// Settings to a validated, typed target. Validation happens once, before any request, and names
// every bad variable in one message: a run against a half-configured shop is worse than no run.
import { randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import { dottedPathProblem } from './client/dotted-path.ts';
import { canonicalJson, parseJson } from './client/json.ts';
import { SETTABLE_FIELDS } from './client/records.ts';
import { type ProxyRoute, proxyProblem, proxyRouteFor, shownProxy } from './connection/proxy.ts';
import { caFileProblem } from './connection/trust.ts';
import { knownSettingNames, RETIRED_SETTINGS, settingDefault } from './settings.ts';
import { profileKey, readShopProfile, type ShopProfile } from './shop-profile.ts';

export type Envelope = 'wrapped' | 'bare';

export type Paging = 'link' | 'page' | 'cursor';
const PAGING_MODES: readonly string[] = ['link', 'page', 'cursor'] satisfies Paging[];

/** The target as the test workers see it. Serializable: it crosses into workers through provide(). */
export interface TargetConfig {
  /** No trailing slash. Empty until the embedded reference has been started. */
  baseUrl: string;
  token: string;
  /** ZONES_MOCK_ACCESS_TOKEN, kept only to be masked: a conformance run never sends it (drift gives each run its own). */
  mockToken?: string;
  authHeader: string;
  authScheme: string;
  apiVersion: string;
  statusParam: string;
  statuses: string[];
  /** The filter value for each status; the status name itself where none is given. */
  filterValues: Record<string, string>;
  envelope: Envelope;
  /** With the wrapped envelope: dotted paths to one zone and to a list's array. */
  zoneKey: string;
  listKey: string;
  idField: string;
  paging: Paging;
  /** page paging: the page-number parameter. */
  pageParam: string;
  /** cursor paging: the dotted path of the next cursor in a list body, and the parameter it goes back in. */
  cursorField: string;
  cursorParam: string;
  /** ZONES_PAGE_SIZE: the zones a page asked for on the first page of every list; unset, the shop's own. */
  pageSize?: number;
  /** The query parameter the page size goes in. */
  pageSizeParam: string;
  /** Kept as JSON text so that numbers beyond 2^53 survive the trip into workers. */
  coverageSamples: string[];
  /** A JSON object as text (same reason): fields added to every create and update body. */
  extraFields: string;
  bookedZoneId?: string;
  bookingHook?: string;
  bookingCleanupHook?: string;
  timeoutMs: number;
  /** The largest answer body read; the rest of a larger one is never fetched. */
  maxBodyBytes: number;
  /** 0: no pacing. */
  maxRps: number;
  consistencyTimeoutMs: number;
  /** ZONES_OUTAGE_BUDGET_MS: how long a shop that stopped answering is waited for before the run stops. */
  outageBudgetMs: number;
  /** The model-based suite: sequences, the longest sequence, the request budget, and a seed to replay. */
  model: ModelBudget;
  reportsDir: string;
  /** True when the suite started its own reference server. */
  embedded: boolean;
  /** The forward proxy the shop is reached through (HTTP_PROXY, HTTPS_PROXY, NO_PROXY), if any. */
  proxy?: ProxyRoute;
  /** ZONES_CA_FILE: CA certificates (PEM) trusted for the shop besides the usual ones. */
  caFile?: string;
  /** ZONES_TLS_INSECURE=1: the shop's certificate is not verified. */
  tlsInsecure: boolean;
  /** ZONES_PROFILE: the file the house style's settings came from, as it was given. */
  profile?: string;
  /** Lines the run says before it starts, about settings that are set but retired (RETIRED_SETTINGS). */
  notices: string[];
}

export interface ModelBudget {
  /** 0: the model-based suite is left out. */
  runs: number;
  steps: number;
  maxRequests: number;
  /** What shrinking a failure may spend on top. */
  shrinkRequests: number;
  /** Unset in the settings: the launcher draws one for the run before the preflight (withRunSeed). */
  seed?: number;
  /** The seed was drawn for this run rather than set (ZONES_MODEL_SEED, --seed): the reports say so. */
  seedDrawn?: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`bad settings: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

export type Environment = Record<string, string | undefined>;

/** The process environment first, then the values of a .env file for what it leaves unset. */
export function loadEnvironment(processEnv: Environment = process.env, envFile = '.env'): Environment {
  const fromFile = existsSync(envFile) ? parseDotenv(readFileSync(envFile)) : {};
  return { ...fromFile, ...processEnv };
}

const MIN_BODY_BYTES = 1024;
const MAX_BODY_BYTES = 32 * 1024 * 1024;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const PATH_SEGMENT = /^[A-Za-z0-9._~-]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;
/** Settings whose values may span lines: shell commands, and JSON a person may lay out over lines. */
const MULTI_LINE_SETTINGS = new Set([
  'ZONES_BOOKING_HOOK',
  'ZONES_BOOKING_CLEANUP_HOOK',
  'ZONES_EXTRA_FIELDS',
  'ZONES_COVERAGE_SAMPLES',
]);

export function readTargetConfig(env: Environment): TargetConfig {
  const problems: string[] = [];
  const baseUrlSet = env.ZONES_BASE_URL !== undefined;
  // Without a shop the profile would change nothing, and that is refused below like any shop setting.
  const profilePath = env.ZONES_PROFILE?.trim() ?? '';
  const profile: ShopProfile | undefined = baseUrlSet && profilePath !== '' ? readShopProfile(profilePath) : undefined;
  if (profile) problems.push(...profile.problems);
  // A variable wins over the profile; an empty one does not, since that is how an unset CI variable arrives.
  const fromVariable = (name: string) => (env[name] ?? '').trim() !== '';
  const fromProfile = (name: string) => !fromVariable(name) && profile?.settings[name] !== undefined;
  const value = (name: string): string => {
    if (fromVariable(name)) return env[name]!.trim();
    if (fromProfile(name)) return profile!.settings[name]!.trim() || settingDefault(name);
    return settingDefault(name);
  };
  const bad = (name: string, why: string) =>
    problems.push(fromProfile(name) ? `${name} (${profileKey(name)} in ${profile!.path}) ${why}` : `${name} ${why}`);
  const isSet = (name: string) => fromVariable(name) || (fromProfile(name) && profile!.settings[name]!.trim() !== '');

  // A value is one line of text: a line break or another control character in it would end up in the
  // reports' titles and tables (a status name is in test titles) and start a heading or a row of its
  // own there. Shell commands and JSON may span lines: their line breaks are part of what they say.
  // A default is one line, so a value that is not comes from a variable or the profile.
  for (const name of knownSettingNames)
    if (!MULTI_LINE_SETTINGS.has(name) && CONTROL_CHARACTER.test(value(name)))
      bad(name, 'must be one line of text, with no line break, tab or other control character in it');

  for (const name of Object.keys(env)) {
    if (knownSettingNames.has(name) || RETIRED_SETTINGS[name] !== undefined) continue;
    const meant = nearMiss(name);
    if (meant !== undefined) bad(name, `is not a setting of this suite; did you mean ${meant}?`);
    else if (name.startsWith('ZONES_')) bad(name, 'is not a setting of this suite (see --help)');
  }

  // Only a base URL that is absent altogether means "certify the embedded reference": an empty one is
  // what an unset CI secret looks like, and a nightly job must not go green without reaching its shop.
  if (baseUrlSet && env.ZONES_BASE_URL!.trim() === '') {
    bad(
      'ZONES_BASE_URL',
      "is set but empty (an unset CI secret?): give the shop's address, or remove the variable to certify the embedded reference",
    );
  }
  if (!baseUrlSet) {
    for (const name of SHOP_SETTINGS) {
      // ZONES_TLS_INSECURE=0 is the default spelled out, as a shared CI block may do: no sign of a shop.
      const asDefault = name === 'ZONES_TLS_INSECURE' && env[name]?.trim() === '0';
      if (env[name] !== undefined && !asDefault)
        bad(
          name,
          'is set but ZONES_BASE_URL is not: without it the run would certify the embedded reference, not your shop',
        );
    }
  }

  let baseUrl = value('ZONES_BASE_URL');
  let url: URL | undefined;
  if (baseUrl !== '') {
    try {
      url = new URL(baseUrl);
    } catch {
      bad('ZONES_BASE_URL', `is not a URL (got "${baseUrl}")`);
    }
    if (url && url.protocol !== 'http:' && url.protocol !== 'https:')
      bad('ZONES_BASE_URL', 'must start with http:// or https://');
    if (url && (url.search !== '' || url.hash !== '')) bad('ZONES_BASE_URL', 'must not carry a query or fragment');
    // A password in the address would go wherever the address goes: every report, every curl replay.
    if (url && (url.username !== '' || url.password !== ''))
      bad(
        'ZONES_BASE_URL',
        'must not carry a user name or password: give the credential in ZONES_ACCESS_TOKEN (for basic auth, ZONES_AUTH_HEADER=Authorization, ZONES_AUTH_SCHEME=Basic and the base64 of user:password)',
      );
    baseUrl = baseUrl.replace(/\/+$/, '');
  }
  // Proxy variables are the machine's, not the suite's: read from the same environment, never refused
  // unless the one that applies to the shop cannot be used.
  const proxy = url ? proxyRouteFor(url, env) : undefined;
  const unusableProxy = proxy && proxyProblem(proxy);
  if (unusableProxy) problems.push(unusableProxy);

  const caFile = value('ZONES_CA_FILE') || undefined;
  const caProblem = caFile === undefined ? undefined : caFileProblem(caFile);
  if (caProblem) bad('ZONES_CA_FILE', caProblem);
  const insecure = value('ZONES_TLS_INSECURE');
  if (insecure !== '0' && insecure !== '1')
    bad('ZONES_TLS_INSECURE', `must be 1 (do not verify the shop's certificate) or 0 (got "${insecure}")`);
  if (insecure === '1' && caFile !== undefined)
    bad(
      'ZONES_TLS_INSECURE',
      'and ZONES_CA_FILE contradict each other: with 1, no certificate is verified, so the CA would change nothing',
    );
  if (insecure === '1' && url?.protocol === 'http:')
    bad(
      'ZONES_TLS_INSECURE',
      'applies only to an https:// ZONES_BASE_URL: over http:// there is no certificate to verify',
    );
  const token = value('ZONES_ACCESS_TOKEN');
  if (baseUrl !== '' && token === '') bad('ZONES_ACCESS_TOKEN', 'is required when ZONES_BASE_URL is set');

  const authHeader = value('ZONES_AUTH_HEADER');
  if (!HEADER_NAME.test(authHeader)) bad('ZONES_AUTH_HEADER', `is not a valid header name (got "${authHeader}")`);
  const authScheme = value('ZONES_AUTH_SCHEME');
  if (authScheme !== '' && !HEADER_NAME.test(authScheme))
    bad('ZONES_AUTH_SCHEME', `must be one word such as Bearer (got "${authScheme}")`);

  const apiVersion = value('ZONES_API_VERSION');
  if (!PATH_SEGMENT.test(apiVersion))
    bad('ZONES_API_VERSION', `must be one path segment such as 2026-07 (got "${apiVersion}")`);
  const statusParam = value('ZONES_STATUS_PARAM');

  const statuses = value('ZONES_STATUSES')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (!statuses.includes('draft') || statuses.length < 2) {
    bad('ZONES_STATUSES', `must contain draft and at least one other status (got "${statuses.join(',')}")`);
  } else if (new Set(statuses).size !== statuses.length) {
    bad('ZONES_STATUSES', 'must not repeat a status');
  }

  const filterValues: Record<string, string> = {};
  for (const pair of value('ZONES_STATUS_FILTER_VALUES')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')) {
    const [status, filterValue, ...rest] = pair.split('=').map((part) => part.trim());
    if (!status || !filterValue || rest.length > 0)
      bad('ZONES_STATUS_FILTER_VALUES', `must be status=value pairs separated by commas (got "${pair}")`);
    else if (!statuses.includes(status))
      bad('ZONES_STATUS_FILTER_VALUES', `names "${status}", which is not in ZONES_STATUSES`);
    else filterValues[status] = filterValue;
  }

  const envelope = value('ZONES_ENVELOPE');
  if (envelope !== 'wrapped' && envelope !== 'bare')
    bad('ZONES_ENVELOPE', `must be wrapped or bare (got "${envelope}")`);
  const idField = value('ZONES_ID_FIELD');
  const zoneKey = value('ZONES_ZONE_KEY');
  const listKey = value('ZONES_LIST_KEY');
  for (const [name, path] of [
    ['ZONES_ZONE_KEY', zoneKey],
    ['ZONES_LIST_KEY', listKey],
  ] as const) {
    const problem = dottedPathProblem(path);
    if (problem) bad(name, problem);
    else if (envelope === 'bare' && isSet(name))
      bad(name, 'applies only with ZONES_ENVELOPE=wrapped: a bare body has no key');
  }

  const paging = value('ZONES_PAGING');
  if (!PAGING_MODES.includes(paging)) bad('ZONES_PAGING', `must be link, page or cursor (got "${paging}")`);
  if (paging === 'cursor' && envelope === 'bare')
    bad(
      'ZONES_PAGING',
      'cannot be cursor with ZONES_ENVELOPE=bare: a bare list is a plain array, with no place for a next cursor',
    );
  const pageParam = value('ZONES_PAGE_PARAM');
  const cursorField = value('ZONES_CURSOR_FIELD');
  const cursorParam = value('ZONES_CURSOR_PARAM');
  // Set without its mode, a companion would change nothing and lists would quietly end after one page.
  const companions = [
    ['ZONES_PAGE_PARAM', 'page'],
    ['ZONES_CURSOR_FIELD', 'cursor'],
    ['ZONES_CURSOR_PARAM', 'cursor'],
  ] as const;
  for (const [name, mode] of companions)
    if (isSet(name) && paging !== mode) bad(name, `applies only with ZONES_PAGING=${mode} (got "${paging}")`);
  const cursorFieldProblem = dottedPathProblem(cursorField);
  if (cursorFieldProblem) bad('ZONES_CURSOR_FIELD', cursorFieldProblem);
  // Every page request keeps the filter, so the paging parameter cannot be the filter's.
  const pagingParam =
    paging === 'page'
      ? (['ZONES_PAGE_PARAM', pageParam] as const)
      : paging === 'cursor'
        ? (['ZONES_CURSOR_PARAM', cursorParam] as const)
        : undefined;
  if (pagingParam && pagingParam[1] === statusParam)
    bad(pagingParam[0], `must differ from ZONES_STATUS_PARAM (both are "${statusParam}")`);

  const pageSizeText = value('ZONES_PAGE_SIZE');
  const pageSize = pageSizeText === '' ? undefined : Number(pageSizeText);
  if (pageSize !== undefined && (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE))
    bad(
      'ZONES_PAGE_SIZE',
      `must be a whole number of zones a page from 1 to ${MAX_PAGE_SIZE}, or empty for the shop's own page size (got "${pageSizeText}")`,
    );
  const pageSizeParam = value('ZONES_PAGE_SIZE_PARAM');
  if (isSet('ZONES_PAGE_SIZE_PARAM') && pageSizeText === '')
    bad('ZONES_PAGE_SIZE_PARAM', 'applies only with ZONES_PAGE_SIZE set: without a page size it sends nothing');
  // The page size goes beside the filter on a first page, and beside the page number or cursor after it.
  if (pageSizeText !== '') {
    const others = [['ZONES_STATUS_PARAM', statusParam] as const, ...(pagingParam ? [pagingParam] : [])];
    for (const [name, param] of others)
      if (pageSizeParam === param) bad('ZONES_PAGE_SIZE_PARAM', `must differ from ${name} (both are "${param}")`);
  }

  const coverageSamples = readCoverageSamples(value('ZONES_COVERAGE_SAMPLES'), (why) =>
    bad('ZONES_COVERAGE_SAMPLES', why),
  );
  const extraFields = readExtraFields(value('ZONES_EXTRA_FIELDS'), (why) => bad('ZONES_EXTRA_FIELDS', why));

  const bookingHook = value('ZONES_BOOKING_HOOK') || undefined;
  const bookingCleanupHook = value('ZONES_BOOKING_CLEANUP_HOOK') || undefined;
  if (bookingCleanupHook && !bookingHook) bad('ZONES_BOOKING_CLEANUP_HOOK', 'needs ZONES_BOOKING_HOOK as well');

  const timeoutText = value('ZONES_TIMEOUT_MS');
  const timeoutMs = Number(timeoutText);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 600_000) {
    bad('ZONES_TIMEOUT_MS', `must be a whole number of milliseconds between 100 and 600000 (got "${timeoutText}")`);
  }

  const maxBodyText = value('ZONES_MAX_BODY_BYTES');
  const maxBodyBytes = Number(maxBodyText);
  // Parsed, a zone list takes some 7 times its size (8 MiB: 60 MiB of heap); past 32 MiB one body
  // alone would take the run beyond a few hundred MiB.
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < MIN_BODY_BYTES || maxBodyBytes > MAX_BODY_BYTES) {
    bad(
      'ZONES_MAX_BODY_BYTES',
      `must be a whole number of bytes between ${MIN_BODY_BYTES} and ${MAX_BODY_BYTES} (got "${maxBodyText}")`,
    );
  }

  const maxRps = Number(value('ZONES_MAX_RPS'));
  if (!Number.isFinite(maxRps) || maxRps < 0 || maxRps > 1000)
    bad(
      'ZONES_MAX_RPS',
      `must be a number of requests per second from 0 (off) to 1000 (got "${value('ZONES_MAX_RPS')}")`,
    );
  const consistencyTimeoutMs = Number(value('ZONES_CONSISTENCY_TIMEOUT_MS'));
  if (!Number.isInteger(consistencyTimeoutMs) || consistencyTimeoutMs < 0 || consistencyTimeoutMs > 600_000) {
    bad(
      'ZONES_CONSISTENCY_TIMEOUT_MS',
      `must be a whole number of milliseconds from 0 to 600000 (got "${value('ZONES_CONSISTENCY_TIMEOUT_MS')}")`,
    );
  }

  // Under a second no back-off fits in it; past an hour a nightly job is better told and run again.
  const outageBudgetMs = wholeSetting(value, bad)('ZONES_OUTAGE_BUDGET_MS', 1000, 3_600_000, 'milliseconds');

  const model = readModelBudget(value, bad);

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    baseUrl,
    token: baseUrl === '' ? '' : token,
    ...(value('ZONES_MOCK_ACCESS_TOKEN') === '' ? {} : { mockToken: value('ZONES_MOCK_ACCESS_TOKEN') }),
    authHeader,
    authScheme,
    apiVersion,
    statusParam,
    statuses,
    filterValues,
    envelope: envelope as Envelope,
    zoneKey,
    listKey,
    idField,
    paging: paging as Paging,
    pageParam,
    cursorField,
    cursorParam,
    pageSize,
    pageSizeParam,
    coverageSamples,
    extraFields,
    bookedZoneId: value('ZONES_BOOKED_ZONE_ID') || undefined,
    bookingHook,
    bookingCleanupHook,
    timeoutMs,
    maxBodyBytes,
    maxRps,
    consistencyTimeoutMs,
    outageBudgetMs,
    model,
    reportsDir: value('ZONES_REPORTS_DIR'),
    embedded: baseUrl === '',
    proxy,
    caFile,
    tlsInsecure: insecure === '1',
    ...(profile ? { profile: profile.path } : {}),
    notices: [
      ...Object.keys(env).filter((name) => RETIRED_SETTINGS[name] !== undefined && fromVariable(name)),
      ...(profile?.retired ?? []),
    ].map((name) => `${name} ${RETIRED_SETTINGS[name]}`),
  };
}

/** Past 1000 zones a page a size is more likely a slip than a shop's limit (Shopify-style shops stop at 250). */
const MAX_PAGE_SIZE = 1000;

/** fast-check takes a 32-bit seed. */
const SEED_RANGE = 2 ** 31;

/** A seed for a run that sets none, from the whole range a person may set. */
export function newModelSeed(): number {
  return randomInt(-SEED_RANGE, SEED_RANGE);
}

/**
 * The command that replays a run's model-based sequences, as every report prints it. The seed goes
 * after `=`: node's parseArgs reads `--seed -1311814496` as an option followed by another ("argument
 * is ambiguous"). Drawing only seeds of zero or more would not be enough, since ZONES_MODEL_SEED takes
 * negative ones (fast-check's whole 32-bit range) and a failure names whichever the run had.
 */
export function seedReplayCommand(seed: number, rule?: string): string {
  return `npm run conformance -- --seed=${seed}${rule === undefined ? '' : ` --rule ${rule}`}`;
}

/** A reader of whole-number settings within bounds: a value out of them is named, with what it counts. */
function wholeSetting(value: (name: string) => string, bad: (name: string, why: string) => void) {
  return (name: string, min: number, max: number, what: string): number => {
    const number = Number(value(name));
    if (!Number.isInteger(number) || number < min || number > max)
      bad(name, `must be a whole number of ${what} from ${min} to ${max} (got "${value(name)}")`);
    return number;
  };
}

function readModelBudget(value: (name: string) => string, bad: (name: string, why: string) => void): ModelBudget {
  const whole = wholeSetting(value, bad);
  const runs = whole('ZONES_MODEL_RUNS', 0, 1000, 'sequences');
  const steps = whole('ZONES_MODEL_STEPS', 1, 1000, 'operations');
  const maxRequests = whole('ZONES_MODEL_MAX_REQUESTS', 10, 100_000, 'requests');
  const shrinkRequests = whole('ZONES_MODEL_SHRINK_REQUESTS', 0, 100_000, 'requests');
  const seedText = value('ZONES_MODEL_SEED');
  const seed = seedText === '' ? undefined : Number(seedText);
  if (seed !== undefined && (!Number.isInteger(seed) || seed < -SEED_RANGE || seed >= SEED_RANGE))
    bad('ZONES_MODEL_SEED', `must be a whole number from ${-SEED_RANGE} to ${SEED_RANGE - 1} (got "${seedText}")`);
  return { runs, steps, maxRequests, shrinkRequests, seed };
}

/** Settings that only make sense for a shop: any of them without ZONES_BASE_URL is a slip, not a choice. */
const SHOP_SETTINGS = [
  'ZONES_ACCESS_TOKEN',
  'ZONES_MOCK_BASE_URL',
  'ZONES_MOCK_ACCESS_TOKEN',
  'ZONES_BOOKED_ZONE_ID',
  'ZONES_BOOKING_HOOK',
  'ZONES_BOOKING_CLEANUP_HOOK',
  'ZONES_CA_FILE',
  'ZONES_TLS_INSECURE',
  'ZONES_PROFILE',
];

/** A name written as if for this suite, with a slip: the setting it was surely meant to be. */
function nearMiss(name: string): string | undefined {
  const squeeze = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const squeezed = squeeze(name);
  // Only names that begin like the suite's own (ZONES_, ZONE_, zones_...) are ever taken for them.
  if (!squeezed.startsWith('ZONE')) return undefined;
  const rest = squeezed.replace(/^ZONES?/, '');
  let best: { name: string; distance: number } | undefined;
  for (const known of knownSettingNames) {
    const knownRest = squeeze(known).replace(/^ZONES/, '');
    const distance = rest === knownRest ? 0 : editDistance(rest, knownRest);
    if (best === undefined || distance < best.distance) best = { name: known, distance };
  }
  // Two slips at most, and fewer on short names, so an unrelated ZONE... variable is never claimed.
  return best !== undefined && best.distance <= Math.min(2, Math.floor(rest.length / 4)) ? best.name : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function readExtraFields(text: string, bad: (why: string) => void): string {
  if (text === '') return '{}';
  let fields: unknown;
  try {
    fields = parseJson(text);
  } catch {
    bad('is not valid JSON');
    return '{}';
  }
  if (fields === null || typeof fields !== 'object' || Array.isArray(fields)) {
    bad('must be a JSON object, e.g. {"currency":"EUR"}');
    return '{}';
  }
  // The suite's own fields are not for this setting: a value there would quietly change every check.
  const own = Object.keys(fields).filter((key) => SETTABLE_FIELDS.includes(key));
  if (own.length > 0) bad(`must not set ${own.join(', ')}: the suite sends those itself`);
  return canonicalJson(fields);
}

function readCoverageSamples(text: string, bad: (why: string) => void): string[] {
  let samples: unknown;
  try {
    samples = parseJson(text);
  } catch {
    bad('is not valid JSON');
    return [];
  }
  if (!Array.isArray(samples) || samples.length < 2) {
    bad('must be a JSON array of at least two coverage values');
    return [];
  }
  const texts = samples.map(canonicalJson);
  if (new Set(texts).size !== texts.length) bad('must hold distinct values');
  return texts;
}

/** The settings for a report: everything but the token. */
export function describeTarget(config: TargetConfig): Record<string, unknown> {
  const { token: _token, bookingHook, bookingCleanupHook, proxy, notices: _notices, ...shown } = config;
  // Hook commands may carry credentials of their own: the report says only whether they are set.
  const set = (value: string | undefined) => (value ? '(set, not shown)' : '(not set)');
  // So may a proxy URL: its host is shown, never its user or password.
  const proxyShown = proxy ? `${shownProxy(proxy.url)} (${proxy.variable})` : '(none)';
  return {
    ...shown,
    token: config.token === '' ? '(none)' : '(set, not shown)',
    bookingHook: set(bookingHook),
    bookingCleanupHook: set(bookingCleanupHook),
    proxy: proxyShown,
    profile: config.profile ?? '(none)',
  };
}
