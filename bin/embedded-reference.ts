// The one bridge between the suite and the reference: with no ZONES_BASE_URL, the suite certifies
// the embedded reference. The reference's house style becomes the suite's settings, and its
// test-only booking route becomes the booking hooks, so DELETE-02 runs through the real hook path.
import type { TargetConfig } from '../helpers/config.ts';
import { settingDefault } from '../helpers/settings.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import type { HouseStyle } from '../reference/styles.ts';
import { bookingHooksForReference } from './reference-settings.ts';

export interface EmbeddedTarget {
  config: TargetConfig;
  reference: RunningReference;
}

const hooks = bookingHooksForReference();

/** The suite's view of a running reference: its style as settings, its booking route as hooks. */
export function configForReference(base: TargetConfig, reference: RunningReference): TargetConfig {
  const { style } = reference;
  return {
    ...base,
    baseUrl: reference.url,
    token: reference.token,
    authHeader: style.authHeader,
    authScheme: style.authScheme,
    statuses: [...style.statuses],
    statusParam: style.statusParam,
    filterValues: { ...style.filterValues },
    envelope: style.envelope,
    zoneKey: style.zoneKey ?? settingDefault('ZONES_ZONE_KEY'),
    listKey: style.listKey ?? settingDefault('ZONES_LIST_KEY'),
    idField: style.idField,
    ...pagingFor(style),
    extraFields: JSON.stringify(style.requiredOnCreate ?? {}),
    coverageSamples: style.coverageExamples
      ? style.coverageExamples.map((value) => JSON.stringify(value))
      : base.coverageSamples,
    bookingHook: hooks.ZONES_BOOKING_HOOK,
    bookingCleanupHook: hooks.ZONES_BOOKING_CLEANUP_HOOK,
  };
}

/** Every paging field is set, so a paging setting meant for another shop cannot leak into this one. */
function pagingFor({ paging }: HouseStyle): Pick<TargetConfig, 'paging' | 'pageParam' | 'cursorField' | 'cursorParam'> {
  return {
    paging: paging?.kind ?? 'link',
    pageParam: paging?.kind === 'page' ? paging.param : settingDefault('ZONES_PAGE_PARAM'),
    cursorField: paging?.kind === 'cursor' ? paging.field : settingDefault('ZONES_CURSOR_FIELD'),
    cursorParam: paging?.kind === 'cursor' ? paging.param : settingDefault('ZONES_CURSOR_PARAM'),
  };
}

export async function startEmbeddedTarget(
  base: TargetConfig,
  options: { style?: string; fault?: string } = {},
): Promise<EmbeddedTarget> {
  const reference = await startReference({ host: '127.0.0.1', port: 0, style: options.style, fault: options.fault });
  return { reference, config: { ...configForReference(base, reference), embedded: true } };
}
