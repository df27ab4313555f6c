// How a list read is named in a message, and the hint for a filter the shop seems not to take: its
// parameter and values are settings (the specification does not show them), so a wrong one must say so.
import { randomBytes } from 'node:crypto';
import { readableZones } from '../client/list-lookups.ts';
import { isRefusal, type ListAnswer, type ZonesClient } from '../client/zones-client.ts';
import type { TargetConfig } from '../config.ts';

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

/** The hint for a failure on a filtered list, in its first line (the console's): the likely cause, or the settings, and the strays. */
export function strayHint(list: ListAnswer, config: TargetConfig, likelyCause?: string): string {
  const found = strays(list);
  if (found.length === 0) return likelyCause === undefined ? '' : `; ${likelyCause}`;
  const shown = found
    .slice(0, 5)
    .map((zone) => `${zone.id} (${String(zone.status)})`)
    .join(', ');
  const answered = `${describeList(config, list.filter)} answered zones in other statuses: ${shown}${found.length > 5 ? ', ...' : ''}`;
  // The cause first: the console shows a reason's first 300 characters.
  return likelyCause === undefined ? `; ${answered}; ${filterSettingsHint(config)}` : `; ${likelyCause}; ${answered}`;
}

/**
 * Why a filter answered zones of another status: an unknown parameter (a setting) or a wrong filter. A
 * filter by a status no zone has tells which is likelier: ignored, it answers the whole list; taken, none.
 */
export async function likelyFilterCause(api: ZonesClient): Promise<string> {
  const config = api.config;
  const setting = `ZONES_STATUS_PARAM (now "${config.statusParam}")`;
  const nowhere = `zc-no-such-status-${randomBytes(4).toString('hex')}`;
  const asked = `asked for a status no zone has (${config.statusParam}=${nowhere})`;
  const undecided = `${setting} may be a parameter the shop does not know, or its filter is broken; which is likelier could not be told: ${asked}`;
  let probe: ListAnswer;
  try {
    probe = await api.listZones({ status: nowhere });
  } catch (error) {
    return `${undecided}, it gave no answer (${String(error instanceof Error ? error.message : error).split('\n')[0]})`;
  }
  const zones = readableZones(probe);
  if (zones !== undefined && zones.length > 0)
    return `${setting} may be a parameter the shop does not know, likelier than a broken filter: ${asked}, it answered ${zones.length} zone(s), as a shop does that ignores an unknown parameter`;
  if (zones !== undefined || isRefusal(probe))
    return `a broken filter is likelier than ${setting}: the shop knows the parameter, since ${asked}, it answered ${zones === undefined ? probe.status : 'no zone'}; unless it spells the statuses otherwise (ZONES_STATUS_FILTER_VALUES)`;
  return `${undecided}, it answered ${probe.status}${probe.read.ok ? '' : ` (${probe.read.problem})`}`;
}
