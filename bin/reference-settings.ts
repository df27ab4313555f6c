// Bridge between the reference and the suite: the settings that point the suite at a running reference, its
// house style through the same validator as an operator's, its test-only booking route as the booking hooks (so
// DELETE-02 runs through the real hook path). With no ZONES_BASE_URL the suite certifies the embedded one.
import { resolve } from 'node:path';
import { type Environment, readTargetConfig, type TargetConfig } from '../helpers/config.ts';
import { readShopProfile } from '../helpers/shop-profile.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import type { HouseStyle, ListPaging } from '../reference/styles.ts';

export function settingsForStyle(style: HouseStyle, url: string, token: string): Record<string, string> {
  return {
    ZONES_BASE_URL: url,
    ZONES_ACCESS_TOKEN: token,
    ZONES_AUTH_HEADER: style.authHeader,
    ZONES_AUTH_SCHEME: style.authScheme,
    ZONES_STATUSES: style.statuses.join(','),
    ZONES_STATUS_PARAM: style.statusParam,
    ZONES_ENVELOPE: style.envelope,
    // Only the style's own keys: the defaults need no setting, and a key beside the bare envelope is refused.
    ...(style.zoneKey === undefined ? {} : { ZONES_ZONE_KEY: style.zoneKey }),
    ...(style.listKey === undefined ? {} : { ZONES_LIST_KEY: style.listKey }),
    ZONES_ID_FIELD: style.idField,
    ...pagingSettings(style),
    // No style takes a page size: each lists at its own, so none is sent (and none leaks in from a shop's settings).
    ZONES_PAGE_SIZE: '',
    ZONES_PAGE_SIZE_PARAM: '',
    ZONES_STATUS_FILTER_VALUES: Object.entries(style.filterValues ?? {})
      .map(([status, value]) => `${status}=${value}`)
      .join(','),
    ZONES_EXTRA_FIELDS: style.requiredOnCreate ? JSON.stringify(style.requiredOnCreate) : '',
    ...(style.coverageExamples ? { ZONES_COVERAGE_SAMPLES: JSON.stringify(style.coverageExamples) } : {}),
  };
}

/** A style that does not page answers every zone at once, which the default (Link) paging reads whole. */
function pagingSettings({ paging }: HouseStyle): Record<string, string> {
  if (paging === undefined) return {};
  if (paging.kind === 'page') return { ZONES_PAGING: 'page', ZONES_PAGE_PARAM: paging.param };
  return { ZONES_PAGING: 'cursor', ZONES_CURSOR_FIELD: paging.field, ZONES_CURSOR_PARAM: paging.param };
}

// A booking hook on the reference's test-only control route, run with ZONES_BASE_URL and ZONE_ID set: curl if the
// machine has it (milliseconds), else Node (slower to start). `direct`: the reference itself, behind the suite's proxy.
function bookingCommand(method: 'POST' | 'DELETE', direct?: string): string {
  const route = `"${direct ?? '$ZONES_BASE_URL'}/__reference__/zones/$ZONE_ID/bookings"`;
  const baseInNode = direct === undefined ? 'process.env.ZONES_BASE_URL' : `'${direct}'`;
  const script = `fetch(${baseInNode}+'/__reference__/zones/'+encodeURIComponent(process.env.ZONE_ID)+'/bookings',{method:'${method}'}).then(r=>process.exit(r.ok?0:1),e=>{console.error(String(e));process.exit(2)})`;
  // exec: the shell becomes curl (or node) instead of waiting on one more process, once per booking.
  return `if command -v curl >/dev/null 2>&1; then exec curl -fsS -o /dev/null -X ${method} ${route}; else exec "${process.execPath}" -e "${script}"; fi`;
}

export function bookingHooksForReference(direct?: string) {
  return {
    ZONES_BOOKING_HOOK: bookingCommand('POST', direct),
    ZONES_BOOKING_CLEANUP_HOOK: bookingCommand('DELETE', direct),
  };
}

/** The operator's own settings, then the reference's style's and its hooks. */
export function configForReference(base: TargetConfig, reference: RunningReference): TargetConfig {
  const settings = {
    ...operatorSettings(base),
    ...settingsForStyle(reference.style, reference.url, reference.token),
    ...bookingHooksForReference(),
  };
  return { ...readTargetConfig(settings), embedded: true };
}

// What the operator set that holds for any target (the coverage samples unless the style brings its own). The rest
// is the style's to say: a setting meant for some shop must not leak into the reference.
export function operatorSettings(base: TargetConfig): Environment {
  return {
    ZONES_API_VERSION: base.apiVersion,
    ZONES_TIMEOUT_MS: String(base.timeoutMs),
    ZONES_MAX_BODY_BYTES: String(base.maxBodyBytes),
    ZONES_MAX_RPS: String(base.maxRps),
    ZONES_CONSISTENCY_TIMEOUT_MS: String(base.consistencyTimeoutMs),
    ZONES_OUTAGE_BUDGET_MS: String(base.outageBudgetMs),
    ZONES_REPORTS_DIR: base.reportsDir,
    ZONES_COVERAGE_SAMPLES: `[${base.coverageSamples.join(',')}]`,
    ZONES_MODEL_RUNS: String(base.model.runs),
    ZONES_MODEL_STEPS: String(base.model.steps),
    ZONES_MODEL_MAX_REQUESTS: String(base.model.maxRequests),
    ZONES_MODEL_SHRINK_REQUESTS: String(base.model.shrinkRequests),
    ZONES_MODEL_SEED: base.model.seed === undefined ? '' : String(base.model.seed),
  };
}

export async function startEmbeddedTarget(base: TargetConfig) {
  const reference = await startReference({ host: '127.0.0.1', port: 0 });
  return { reference, config: configForReference(base, reference) };
}

/** A page size for a profile that pages but names none: the reference's own. */
const MOCK_PAGE_SIZE = 50;

/**
 * The reference's house style for a shop profile: its settings read and checked as a run reads them (a bad one throws
 * ConfigError, with the run's messages), its "mock" section for what only a mock chooses. The mock is the reference.
 */
export function styleFromProfile(path: string): HouseStyle {
  const config = readTargetConfig({
    ZONES_BASE_URL: 'http://127.0.0.1:1',
    ZONES_ACCESS_TOKEN: 'mock',
    ZONES_PROFILE: path,
  });
  const mock = readShopProfile(path).mock as {
    created?: number;
    deleted?: 200 | 204;
    unauthenticated?: number;
    booked?: number;
    invalid?: number;
    error_key?: string;
    content_type?: string;
    extra_fields?: Record<string, unknown>;
    unknown_status_filter?: 'empty' | 'refused';
    id_style?: 'number' | 'string' | 'uuid' | 'big-number';
    rate_limit?: { burst: number; per_second: number };
    latency_ms?: number;
  };
  const size = config.pageSize ?? MOCK_PAGE_SIZE;
  const paging: ListPaging | undefined =
    config.paging === 'page'
      ? { kind: 'page', param: config.pageParam, size }
      : config.paging === 'cursor'
        ? { kind: 'cursor', field: config.cursorField, param: config.cursorParam, size }
        : undefined;
  const required = JSON.parse(config.extraFields) as Record<string, unknown>;
  const { created, deleted, unauthenticated, booked, invalid } = mock;
  return {
    name: `profile ${path}`,
    authHeader: config.authHeader,
    authScheme: config.authScheme,
    // The reference makes zones in its first status.
    statuses: ['draft', ...config.statuses.filter((status) => status !== 'draft')],
    statusParam: config.statusParam,
    filterValues: config.filterValues,
    envelope: config.envelope,
    ...(config.envelope === 'wrapped' ? { zoneKey: config.zoneKey, listKey: config.listKey } : {}),
    idField: config.idField,
    idStyle: mock.id_style === 'uuid' ? 'string' : (mock.id_style ?? 'number'),
    ...(mock.id_style === 'uuid' ? { stringIdShape: 'uuid' as const } : {}),
    ...(paging ? { paging } : {}),
    ...(Object.keys(required).length > 0 ? { requiredOnCreate: required } : {}),
    apiVersion: config.apiVersion,
    codes: { created, deleted, unauthenticated, booked, invalid },
    errorKey: mock.error_key,
    contentType: mock.content_type,
    extraZoneFields: mock.extra_fields,
    unknownStatusFilter: mock.unknown_status_filter,
    ...(mock.rate_limit ? { rateLimit: { burst: mock.rate_limit.burst, perSecond: mock.rate_limit.per_second } } : {}),
    latencyMs: mock.latency_ms,
  };
}

/** The settings that point the suite at a running mock: its profile when it has one (the suite reads it too), else its style. */
export function mockSettings(reference: Pick<RunningReference, 'url' | 'token' | 'style'>, profile?: string) {
  const { url, token } = reference;
  const reach =
    profile === undefined
      ? settingsForStyle(reference.style, url, token)
      : // Absolute: the printed line works from any folder the person pastes it in.
        { ZONES_BASE_URL: url, ZONES_ACCESS_TOKEN: token, ZONES_PROFILE: resolve(profile) };
  return { ...reach, ...bookingHooksForReference() };
}
