import { has } from '../faults.ts';
import { pageOf } from '../list-paging.ts';
import { type Reply, reply } from '../respond.ts';
import { draftStatus, type ZoneService } from '../service.ts';
import type { StoredZone } from '../zone-store.ts';
import { type ZoneRecord, zoneListBody, zoneRecord } from '../zone-view.ts';

function unfiltered(service: ZoneService, zones: StoredZone[]): StoredZone[] {
  if (has(service.fault, 'list-hides-non-draft'))
    return zones.filter((zone) => zone.status === draftStatus(service.style));
  return zones;
}

function filtered(service: ZoneService, zones: StoredZone[], wanted: string): StoredZone[] {
  const { fault, style } = service;
  if (has(fault, 'filter-ignored')) return zones;
  if (has(fault, 'filter-only-draft') && wanted !== draftStatus(style)) return zones;
  if (has(fault, 'filter-draft-ignored') && wanted === draftStatus(style)) return zones;
  if (has(fault, 'filter-drops-last-status') && wanted === style.statuses.at(-1)) return [];
  const statusOf = (zone: StoredZone) => (has(fault, 'update-status-unfiltered') ? zone.statusAtCreation : zone.status);
  const matching = zones.filter((zone) => statusOf(zone) === wanted);
  if (!has(fault, 'filter-cache-stale')) return matching;
  // The ids this filter answered last, until a create clears them: a status change does not.
  const cached = service.recall.filterCache.get(wanted);
  if (cached === undefined) {
    const ids = matching.map((zone) => zone.id);
    service.recall.filterCache.set(wanted, ids);
    return matching;
  }
  return zones.filter((zone) => cached.includes(zone.id));
}

/** The zones a GET would show across all its pages. */
function listedZones(service: ZoneService, query: URLSearchParams): StoredZone[] {
  const visible = service.store.all().filter((zone) => !zone.softDeleted && !zone.awaitingFirstUpdate);
  // An empty filter value is treated as no filter, as most query-string handling does.
  const asked = query.get(service.style.statusParam);
  const byFilterValue = Object.entries(service.style.filterValues ?? {}).find(([, value]) => value === asked)?.[0];
  const wanted = byFilterValue ?? asked;
  return wanted ? filtered(service, visible, wanted) : unfiltered(service, visible);
}

/** The records a GET would show; also what a leaky refusal gives away. */
export function listedRecords(service: ZoneService, query: URLSearchParams): ZoneRecord[] {
  return listedZones(service, query).map((zone) => zoneRecord(service.style, zone));
}

/** A filter value that names none of the style's statuses, neither by name nor as the filter spells it. */
function asksUnknownStatus({ style }: ZoneService, query: URLSearchParams): boolean {
  const asked = query.get(style.statusParam) ?? '';
  if (asked === '') return false;
  return !style.statuses.includes(asked) && !Object.values(style.filterValues ?? {}).includes(asked);
}

/** The count a style that announces it puts in X-Total-Count: every zone the list shows, on all its pages. */
function countHeader(service: ZoneService, query: URLSearchParams): Record<string, string> | undefined {
  if (!service.style.totalCountHeader) return undefined;
  return { 'x-total-count': String(listedZones(service, query).length) };
}

export function listZones(service: ZoneService, query: URLSearchParams): Reply {
  const { style, store } = service;
  if (style.unknownStatusFilter === 'refused' && asksUnknownStatus(service, query))
    return reply(400, { errors: `${style.statusParam} must be one of ${style.statuses.join(', ')}` });
  const headers = countHeader(service, query);
  if (!style.paging) return reply(200, zoneListBody(style, listedRecords(service, query)), headers);
  const page = pageOf(style.paging, store, listedZones(service, query), query);
  if (!page.ok) return page.reply;
  return reply(
    200,
    zoneListBody(
      style,
      page.zones.map((zone) => zoneRecord(style, zone)),
      page.nextCursor,
    ),
    headers,
  );
}
