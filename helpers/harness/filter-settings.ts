// How a list read is named in a message, and the hint a reader needs when a filtered list looks like
// the shop did not take the filter as the settings say: the parameter and its values are settings
// (the specification does not show them), so a wrong one must point at itself, not at the shop.

import type { ListAnswer } from '../client/zones-client.ts';
import type { TargetConfig } from '../config.ts';

/** Which list this is, as the request asked for it. */
export function describeList(config: TargetConfig, status?: string): string {
  if (status === undefined) return 'the zone list';
  return `the list filtered by ${status} (${config.statusParam}=${config.filterValues[status] ?? status})`;
}

export function filterSettingsHint(config: TargetConfig): string {
  return `if the shop filters by another query parameter or other values, set ZONES_STATUS_PARAM (now "${config.statusParam}") or ZONES_STATUS_FILTER_VALUES`;
}

/** Records of a filtered list that show another status than the one asked for. */
export function strays(list: ListAnswer): { id: string; status: unknown }[] {
  if (list.filter === undefined || !list.read.ok) return [];
  return list.read.zones
    .filter((zone) => zone.status !== undefined && zone.status !== list.filter)
    .map((zone) => ({ id: zone.id.text, status: zone.status }));
}

/** The hint for a failure on a filtered list, or nothing when the list shows no sign of an ignored filter. */
export function strayHint(list: ListAnswer, config: TargetConfig): string {
  const found = strays(list);
  if (found.length === 0) return '';
  const shown = found
    .slice(0, 5)
    .map((zone) => `${zone.id} (${String(zone.status)})`)
    .join(', ');
  return `\n\n${describeList(config, list.filter)} answered zones in other statuses: ${shown}${found.length > 5 ? ', ...' : ''}; ${filterSettingsHint(config)}`;
}
