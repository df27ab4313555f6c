// Settings to a validated, typed target, once, before any request, naming every bad variable in one message:
// a run against a half-configured shop is worse than no run. Each setting is read as settings.ts types it.
import { randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseDotenv } from 'dotenv';
import { proxyProblem, proxyRouteFor, shownProxy } from './connection/proxy.ts';
import { caFileProblem } from './connection/trust.ts';
import { canonicalJson, parseJson } from './json.ts';
import {
  type Envelope,
  type Paging,
  RETIRED_SETTINGS,
  SEED_RANGE,
  SETTINGS,
  type Setting,
  type SettingName,
  type SettingType,
  settingDefault,
} from './settings.ts';
import { profileKey, readShopProfile } from './shop-profile.ts';

/** The target as the workers see it, serializable for provide(): a field per setting, and the way to the shop. */
export type TargetConfig = ReturnType<typeof readTargetConfig>;

export interface ModelBudget {
  runs: number;
  steps: number;
  maxRequests: number;
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
export function loadEnvironment(): Environment {
  return { ...(existsSync('.env') ? parseDotenv(readFileSync('.env')) : {}), ...process.env };
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

export function readTargetConfig(env: Environment) {
  const problems: string[] = [];
  const baseUrlSet = env.ZONES_BASE_URL !== undefined;
  // Without a shop the profile would change nothing, and that is refused below like any shop setting.
  const profilePath = env.ZONES_PROFILE?.trim() ?? '';
  const profile = baseUrlSet && profilePath !== '' ? readShopProfile(profilePath) : undefined;
  if (profile) problems.push(...profile.problems);
  // A variable wins over the profile; an empty one does not, since that is how an unset CI variable arrives.
  const fromVariable = (name: string) => (env[name] ?? '').trim() !== '';
  const fromProfile = (name: string) => !fromVariable(name) && profile?.settings[name] !== undefined;
  const given = (name: string) => env[name]?.trim() || profile?.settings[name]?.trim() || '';
  const value = (name: SettingName) => given(name) || settingDefault(name);
  const isSet = (name: SettingName) => given(name) !== '';
  const refused = new Set<string>();
  const bad = (name: string, why: string) => {
    refused.add(name);
    problems.push(fromProfile(name) ? `${name} (${profileKey(name)} in ${profile!.path}) ${why}` : `${name} ${why}`);
  };

  // A line break or other control character would reach the reports' titles and tables (a status name is in
  // test titles) and start a heading or row of its own there. Shell commands and JSON may span lines.
  for (const { name, type = { kind: 'text' as const } } of SETTINGS)
    if (type.kind !== 'command' && type.kind !== 'json' && CONTROL_CHARACTER.test(value(name)))
      bad(name, 'must be one line of text, with no line break, tab or other control character in it');

  for (const name of Object.keys(env)) {
    if (SETTINGS.some((setting) => setting.name === name) || RETIRED_SETTINGS[name] !== undefined) continue;
    const meant = nearMiss(name);
    if (meant !== undefined) bad(name, `is not a setting of this suite; did you mean ${meant}?`);
    else if (name.startsWith('ZONES_')) bad(name, 'is not a setting of this suite (see --help)');
  }

  // Only a base URL that is absent altogether means "certify the embedded reference": an empty one is
  // what an unset CI secret looks like, and a nightly job must not go green without reaching its shop.
  if (baseUrlSet && env.ZONES_BASE_URL!.trim() === '')
    bad(
      'ZONES_BASE_URL',
      "is set but empty (an unset CI secret?): give the shop's address, or remove the variable to certify the embedded reference",
    );
  for (const { name } of SETTINGS.filter((setting) => !baseUrlSet && setting.onlyWithAShop)) {
    // ZONES_TLS_INSECURE=0 is the default spelled out, as a shared CI block may do: no sign of a shop.
    const asDefault = name === 'ZONES_TLS_INSECURE' && env[name]?.trim() === '0';
    if (env[name] !== undefined && !asDefault)
      bad(
        name,
        'is set but ZONES_BASE_URL is not: without it the run would certify the embedded reference, not your shop',
      );
  }

  const address = value('ZONES_BASE_URL');
  const url = URL.canParse(address) ? new URL(address) : undefined;
  if (address !== '' && !url) bad('ZONES_BASE_URL', `is not a URL (got "${address}")`);
  if (url && url.protocol !== 'http:' && url.protocol !== 'https:')
    bad('ZONES_BASE_URL', 'must start with http:// or https://');
  if (url && (url.search !== '' || url.hash !== '')) bad('ZONES_BASE_URL', 'must not carry a query or fragment');
  // A password in the address would go wherever the address goes: every report, every curl replay.
  if (url && (url.username !== '' || url.password !== ''))
    bad(
      'ZONES_BASE_URL',
      'must not carry a user name or password: give the credential in ZONES_ACCESS_TOKEN (for basic auth, ZONES_AUTH_HEADER=Authorization, ZONES_AUTH_SCHEME=Basic and the base64 of user:password)',
    );
  const baseUrl = address.replace(/\/+$/, '');
  // Proxy variables are the machine's, not the suite's: refused only if the one for the shop cannot be used.
  const proxy = url ? proxyRouteFor(url, env) : undefined;
  const unusableProxy = proxy && proxyProblem(proxy);
  if (unusableProxy) problems.push(unusableProxy);

  const caFile = value('ZONES_CA_FILE') || undefined;
  const caProblem = caFile === undefined ? undefined : caFileProblem(caFile);
  if (caProblem) bad('ZONES_CA_FILE', caProblem);
  const tlsInsecure = value('ZONES_TLS_INSECURE') === '1';
  if (tlsInsecure && caFile !== undefined)
    bad(
      'ZONES_TLS_INSECURE',
      'and ZONES_CA_FILE contradict each other: with 1, no certificate is verified, so the CA would change nothing',
    );
  if (tlsInsecure && url?.protocol === 'http:')
    bad(
      'ZONES_TLS_INSECURE',
      'applies only to an https:// ZONES_BASE_URL: over http:// there is no certificate to verify',
    );
  const token = value('ZONES_ACCESS_TOKEN');
  if (baseUrl !== '' && token === '') bad('ZONES_ACCESS_TOKEN', 'is required when ZONES_BASE_URL is set');

  // Each setting as its type says, then what one says of another.
  const values = new Map(SETTINGS.map((setting) => [setting.name, readByType(setting, value(setting.name), bad)]));
  const read = <Value>(name: SettingName) => values.get(name) as Value;

  const statuses = read<string[]>('ZONES_STATUSES');
  const filterValues: Record<string, string> = {};
  for (const [status, filterValue] of read<[string, string][]>('ZONES_STATUS_FILTER_VALUES')) {
    if (!statuses.includes(status))
      bad('ZONES_STATUS_FILTER_VALUES', `names "${status}", which is not in ZONES_STATUSES`);
    else filterValues[status] = filterValue;
  }

  const envelope = read<Envelope>('ZONES_ENVELOPE');
  for (const name of ['ZONES_ZONE_KEY', 'ZONES_LIST_KEY'] as const)
    if (!refused.has(name) && envelope === 'bare' && isSet(name))
      bad(name, 'applies only with ZONES_ENVELOPE=wrapped: a bare body has no key');

  const paging = read<Paging>('ZONES_PAGING');
  if (paging === 'cursor' && envelope === 'bare')
    bad(
      'ZONES_PAGING',
      'cannot be cursor with ZONES_ENVELOPE=bare: a bare list is a plain array, with no place for a next cursor',
    );
  // Set without its mode, a companion would change nothing and lists would quietly end after one page.
  const companions = [
    ['ZONES_PAGE_PARAM', 'page'],
    ['ZONES_CURSOR_FIELD', 'cursor'],
    ['ZONES_CURSOR_PARAM', 'cursor'],
  ] as const;
  for (const [name, mode] of companions)
    if (isSet(name) && paging !== mode) bad(name, `applies only with ZONES_PAGING=${mode} (got "${paging}")`);

  // Every page request keeps the filter, and the page size goes beside both: no two may share a parameter.
  const pageSize = read<number | undefined>('ZONES_PAGE_SIZE');
  const sentTogether = (
    [
      'ZONES_STATUS_PARAM',
      companions.find(([name, mode]) => mode === paging && name.endsWith('_PARAM'))?.[0],
      pageSize === undefined ? undefined : 'ZONES_PAGE_SIZE_PARAM',
    ] as const
  ).filter((name) => name !== undefined);
  sentTogether.forEach((name, index) => {
    for (const other of sentTogether.slice(0, index))
      if (value(name) === value(other)) bad(name, `must differ from ${other} (both are "${value(name)}")`);
  });
  if (isSet('ZONES_PAGE_SIZE_PARAM') && pageSize === undefined)
    bad('ZONES_PAGE_SIZE_PARAM', 'applies only with ZONES_PAGE_SIZE set: without a page size it sends nothing');

  const bookingHook = value('ZONES_BOOKING_HOOK') || undefined;
  const bookingCleanupHook = value('ZONES_BOOKING_CLEANUP_HOOK') || undefined;
  if (bookingCleanupHook && !bookingHook) bad('ZONES_BOOKING_CLEANUP_HOOK', 'needs ZONES_BOOKING_HOOK as well');

  if (problems.length > 0) throw new ConfigError(problems);
  const model: ModelBudget = {
    runs: read('ZONES_MODEL_RUNS'),
    steps: read('ZONES_MODEL_STEPS'),
    maxRequests: read('ZONES_MODEL_MAX_REQUESTS'),
    shrinkRequests: read('ZONES_MODEL_SHRINK_REQUESTS'),
    seed: read('ZONES_MODEL_SEED'),
  };
  return {
    /** No trailing slash. Empty until the embedded reference has been started. */
    baseUrl,
    token: baseUrl === '' ? '' : token,
    /** Kept only to be masked: a conformance run never sends it (drift gives each run its own). */
    ...(value('ZONES_MOCK_ACCESS_TOKEN') === '' ? {} : { mockToken: value('ZONES_MOCK_ACCESS_TOKEN') }),
    authHeader: value('ZONES_AUTH_HEADER'),
    authScheme: value('ZONES_AUTH_SCHEME'),
    apiVersion: value('ZONES_API_VERSION'),
    statusParam: value('ZONES_STATUS_PARAM'),
    statuses,
    filterValues,
    envelope,
    zoneKey: value('ZONES_ZONE_KEY'),
    listKey: value('ZONES_LIST_KEY'),
    idField: value('ZONES_ID_FIELD'),
    paging,
    pageParam: value('ZONES_PAGE_PARAM'),
    cursorField: value('ZONES_CURSOR_FIELD'),
    cursorParam: value('ZONES_CURSOR_PARAM'),
    pageSize,
    pageSizeParam: value('ZONES_PAGE_SIZE_PARAM'),
    /** Kept as JSON text so that numbers beyond 2^53 survive the trip into workers. */
    coverageSamples: read<unknown[]>('ZONES_COVERAGE_SAMPLES').map(canonicalJson),
    /** A JSON object as text (same reason): fields added to every create and update body. */
    extraFields: canonicalJson(read('ZONES_EXTRA_FIELDS') ?? {}),
    bookedZoneId: value('ZONES_BOOKED_ZONE_ID') || undefined,
    bookingHook,
    bookingCleanupHook,
    timeoutMs: read<number>('ZONES_TIMEOUT_MS'),
    maxBodyBytes: read<number>('ZONES_MAX_BODY_BYTES'),
    maxRps: read<number>('ZONES_MAX_RPS'),
    consistencyTimeoutMs: read<number>('ZONES_CONSISTENCY_TIMEOUT_MS'),
    outageBudgetMs: read<number>('ZONES_OUTAGE_BUDGET_MS'),
    model,
    reportsDir: value('ZONES_REPORTS_DIR'),
    embedded: baseUrl === '',
    proxy,
    ...(caFile === undefined ? {} : { caFile }),
    tlsInsecure,
    ...(profile ? { profile: profile.path } : {}),
    /** Lines the run says before it starts, about settings that are set but retired. */
    notices: [
      ...Object.keys(env).filter((name) => RETIRED_SETTINGS[name] !== undefined && fromVariable(name)),
      ...(profile?.retired ?? []),
    ].map((name) => `${name} ${RETIRED_SETTINGS[name]}`),
  };
}

/** A seed for a run that sets none, from the whole range a person may set. */
export function newModelSeed(): number {
  return randomInt(-SEED_RANGE, SEED_RANGE);
}

/** The replay command every report prints: `--seed=N`, since parseArgs reads `--seed -13` as two options. */
export function seedReplayCommand(seed: number, rule?: string): string {
  return `npm run conformance -- --seed=${seed}${rule === undefined ? '' : ` --rule ${rule}`}`;
}

/** A name written as if for this suite, with a slip: the setting it was surely meant to be. */
function nearMiss(name: string): string | undefined {
  const squeeze = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  // Only names that begin like the suite's own (ZONES_, ZONE_, zones_...) are ever taken for them.
  if (!squeeze(name).startsWith('ZONE')) return undefined;
  const rest = squeeze(name).replace(/^ZONES?/, '');
  const byRest = new Map(SETTINGS.map(({ name: known }) => [squeeze(known).replace(/^ZONES/, ''), known]));
  // Two slips at most, and fewer on short names, so an unrelated ZONE... variable is never claimed.
  const meant = nearestName(rest, [...byRest.keys()], () => Math.min(2, Math.floor(rest.length / 4)));
  return meant === undefined ? undefined : byRest.get(meant);
}

/** The known name fewest slips from `typed`, if within `slips(name)`; the first of them on a tie. */
export function nearestName(typed: string, known: readonly string[], slips: (name: string) => number) {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed, name);
    if (distance <= slips(name) && distance < (best?.distance ?? Infinity)) best = { name, distance };
  }
  return best?.name;
}

/** The letters to insert, delete, replace or swap (one slip: --hepl for --help) to turn one text into the other. */
function editDistance(from: string, to: string): number {
  let [twoAbove, above] = [[] as number[], Array.from({ length: to.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= from.length; i++) {
    const row = [i];
    for (let j = 1; j <= to.length; j++) {
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + (from[i - 1] === to[j - 1] ? 0 : 1));
      if (from[i - 1] === to[j - 2] && from[i - 2] === to[j - 1]) row[j] = Math.min(row[j]!, twoAbove[j - 2]! + 1);
    }
    [twoAbove, above] = [above, row];
  }
  return above[to.length]!;
}

export const listOf = (text: string) =>
  text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');

/** "wrapped or bare", "link, page or cursor", "1 (do not verify the shop's certificate) or 0". */
function oneOf({ choices, meaning = {} }: Extract<SettingType, { kind: 'choice' }>): string {
  const said = choices.map((choice) => (meaning[choice] === undefined ? choice : `${choice} (${meaning[choice]})`));
  return `${said.slice(0, -1).join(', ')} or ${said.at(-1)}`;
}

function readByType(setting: Setting, text: string, badSetting: (name: string, why: string) => void): unknown {
  const { type = { kind: 'text' } } = setting;
  const bad = (why: string) => badSetting(setting.name, why);
  const checked = <Value>(read: Value, problem: string | undefined): Value => {
    if (problem !== undefined) bad(problem);
    return read;
  };
  switch (type.kind) {
    case 'text':
      return checked(text, type.check?.(text));
    case 'command':
      return text;
    case 'choice':
      return checked(text, type.choices.includes(text) ? undefined : `must be ${oneOf(type)} (got "${text}")`);
    case 'number':
      return readNumber(type, text, bad);
    case 'names':
      return checked(listOf(text), type.check?.(listOf(text)));
    case 'pairs':
      return listOf(text).flatMap((pair) => {
        const [name, paired, ...rest] = pair.split('=').map((part) => part.trim());
        if (name && paired && rest.length === 0) return [[name, paired]];
        bad(`must be ${type.spelled} pairs separated by commas (got "${pair}")`);
        return [];
      });
    case 'json':
      return readJson(type, text, bad);
  }
}

function readNumber(type: Extract<SettingType, { kind: 'number' }>, text: string, bad: (why: string) => void) {
  if (text === '' && type.empty !== undefined) return undefined;
  const number = Number(text);
  if (!(type.whole ? Number.isInteger(number) : Number.isFinite(number)) || number < type.min || number > type.max) {
    const what = `${type.whole ? 'a whole number' : 'a number'}${type.unit === undefined ? '' : ` of ${type.unit}`}`;
    const orEmpty = type.empty === undefined ? '' : `, or empty for ${type.empty}`;
    bad(`must be ${what} from ${type.min} to ${type.max}${orEmpty} (got "${text}")`);
  }
  return number;
}

function readJson(type: Extract<SettingType, { kind: 'json' }>, text: string, bad: (why: string) => void): unknown {
  if (text === '') return undefined;
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    bad('is not valid JSON');
    return undefined;
  }
  const shape = Array.isArray(value) ? 'array' : value !== null && typeof value === 'object' ? 'object' : undefined;
  if (shape !== type.shape) {
    bad(`must be ${type.mustBe}`);
    return undefined;
  }
  const problem = type.check?.(value);
  if (problem !== undefined) bad(problem);
  return value;
}

/** A JSON setting as its value, so that a report encodes it once; as its text where a number past 2^53 would lose digits. */
function shownJson(text: string): unknown {
  const value: unknown = JSON.parse(text);
  return canonicalJson(value) === text ? value : text;
}

/** The settings for a report: everything but the token. */
export function describeTarget(config: TargetConfig): Record<string, unknown> {
  const { token: _token, bookingHook, bookingCleanupHook, proxy, notices: _notices, ...shown } = config;
  // Hook commands may carry credentials: the report says only whether they are set, or that they are the reference's.
  const hookSet = config.embedded ? "(the embedded reference's booking route)" : '(set, not shown)';
  const set = (value: string | undefined) => (value ? hookSet : '(not set)');
  return {
    ...shown,
    coverageSamples: config.coverageSamples.map(shownJson),
    extraFields: shownJson(config.extraFields),
    token: config.token === '' ? '(none)' : '(set, not shown)',
    bookingHook: set(bookingHook),
    bookingCleanupHook: set(bookingCleanupHook),
    // So may a proxy URL: its host is shown, never its user or password.
    proxy: proxy ? `${shownProxy(proxy.url)} (${proxy.variable})` : '(none)',
    profile: config.profile ?? '(none)',
  };
}
