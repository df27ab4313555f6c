// The list checks the suites call: the list is re-read until it shows what was written, then judged by the matchers; a
// list only the means of a check, or a field no record shows, leaves it not verified. A filter's parameter and values
// are settings (the specification does not show them), so a filter the shop seems not to take says so.
import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { type ExpectedFields, listedZone, listsZone, readableZones, showsZone } from '../client/list-lookups.ts';
import type { ZoneId, ZoneRecord } from '../client/records.ts';
import { PreconditionError } from '../client/records.ts';
import { isRefusal, isSuccess, type ListAnswer, type Settle, type ZonesClient } from '../client/zones-client.ts';
import type { TargetConfig } from '../config.ts';
import { formatAnswers } from '../evidence/evidence.ts';

export function describeList(config: TargetConfig, status?: string): string {
  if (status === undefined) return 'the zone list';
  return `the list filtered by ${status} (${config.statusParam}=${config.filterValues[status] ?? status})`;
}

export function filterSettingsHint(config: TargetConfig): string {
  return `if the shop filters by another query parameter or other values, set ZONES_STATUS_PARAM (now "${config.statusParam}") or ZONES_STATUS_FILTER_VALUES`;
}

/** Records of a filtered list that show another status than the one asked for, as "id (status)". */
export function strays(list: ListAnswer): string[] {
  if (list.filter === undefined || !list.read.ok) return [];
  return list.read.zones
    .filter((zone) => zone.status !== undefined && zone.status !== list.filter)
    .map((zone) => `${zone.id.text} (${String(zone.status)})`);
}

/** The hint for a failure on a filtered list, in its first line (the console's): the likely cause, or the settings, and the strays. */
export function strayHint(list: ListAnswer, config: TargetConfig, likelyCause?: string): string {
  const found = strays(list);
  if (found.length === 0) return likelyCause === undefined ? '' : `; ${likelyCause}`;
  const shown = found.slice(0, 5).join(', ');
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

/** A list read that is only the means of a check: unreadable, it leaves the check not verified, not failed. */
export function requireReadable(list: ListAnswer, config: TargetConfig): void {
  if (isSuccess(list) && list.read.ok) return;
  const why = isSuccess(list) && !list.read.ok ? `cannot be read: ${list.read.problem}` : `answered ${list.status}`;
  const hint = list.filter !== undefined && isRefusal(list) ? `; ${filterSettingsHint(config)}` : '';
  throw new PreconditionError(
    `${describeList(config, list.filter)} ${why}, so this check cannot be made${hint}\n\n${formatAnswers(...list.pages)}`,
  );
}

interface ListOptions {
  status?: string;
  /** The read is what the rule is about (LIST-01, LIST-02, UPDATE-03's filter, CREATE-01): an unreadable one fails it. */
  ruleReads?: boolean;
}

async function readList(api: ZonesClient, options: ListOptions, settle: Settle): Promise<ListAnswer> {
  const list = await api.listZones({ status: options.status, settle });
  if (!options.ruleReads) requireReadable(list, api.config);
  return list;
}

/**
 * A field our record leaves out is evidence when the target shows it elsewhere: on other records, or, for a
 * status, by a filter known to work (a wrong filter value answers nothing) that leaves the zone out. Else
 * it stays unknown: a status missing while the filter lists the zone may be a shop that omits defaults.
 */
async function judgeUnshown(api: ZonesClient, list: ListAnswer, id: ZoneId, fields: ExpectedFields): Promise<void> {
  const listed = listedZone(list, id);
  const unshown = (Object.keys(fields) as (keyof ExpectedFields)[]).filter((key) => listed?.[key] === undefined);
  if (listed === undefined || unshown.length === 0) return;
  const others = (readableZones(list) ?? []).filter((zone) => zone.id.text !== id.text);
  const shownElsewhere = (key: keyof ExpectedFields) => others.some((zone) => zone[key] !== undefined);
  // A name or coverage the shop shows on its other records but not on ours: the matcher fails on it.
  if (unshown.some((key) => key !== 'status' && shownElsewhere(key))) return;
  if (unshown.includes('status') && typeof fields.status === 'string') {
    const filtered = await readList(api, { status: fields.status }, (l) => listsZone(l, id));
    const what = `zone ${id.text} shows no status, and ${describeList(api.config, fields.status)} leaves it out`;
    const filterWorks = shownElsewhere('status') || (readableZones(filtered) ?? []).length > 0;
    if (!filterWorks && !listsZone(filtered, id))
      throw new PreconditionError(
        `${what}, but it answers no zone at all, so it proves nothing; ${filterSettingsHint(api.config)}`,
      );
    expect(listsZone(filtered, id), `${what}\n\n${formatAnswers(list, ...filtered.pages)}`).toBe(true);
    if (shownElsewhere('status')) {
      throw new PreconditionError(
        `zone ${id.text} shows no status while other records do; the filter by ${fields.status} lists it, as would a shop that leaves out default values`,
      );
    }
  }
  throw new PreconditionError(`list records do not show ${unshown.join(' or ')}, so the value cannot be checked`);
}

/** The list shows the zone with these values (after re-reading a lagging list, if allowed). */
export async function expectZoneShown(
  api: ZonesClient,
  id: ZoneId,
  fields: ExpectedFields,
  options: ListOptions = {},
): Promise<void> {
  const list = await readList(api, options, (l) => showsZone(l, id, fields));
  await judgeUnshown(api, list, id, fields);
  expect(list).toShowZone(id, fields);
}

export async function expectZoneListed(api: ZonesClient, id: ZoneId, options: ListOptions = {}): Promise<void> {
  expect(await readList(api, options, (list) => listsZone(list, id))).toListZone(id);
}

export async function expectZoneNotListed(api: ZonesClient, id: ZoneId, options: ListOptions = {}): Promise<void> {
  const list = await readList(api, options, (l) => readableZones(l) !== undefined && !listsZone(l, id));
  // A filter that answers a zone it must not may be a parameter the shop does not know: asked only now
  // that the check fails, so a passing run sends nothing more.
  const cause = options.status !== undefined && listsZone(list, id) ? await likelyFilterCause(api) : undefined;
  expect(list).not.toListZone(id, cause);
}

/** Nothing changed: read only after the whole consistency window, so a late change still shows. */
export async function expectZoneUnchanged(api: ZonesClient, before: ZoneRecord): Promise<void> {
  const { name, coverage, status } = before;
  const shown = Object.fromEntries(
    Object.entries({ name, coverage, status }).filter(([, value]) => value !== undefined),
  );
  if (Object.keys(shown).length === 0)
    throw new PreconditionError(
      'list records show none of name, coverage and status, so "unchanged" cannot be checked',
    );
  expect(await readList(api, {}, 'after-timeout')).toShowZone(before.id, shown);
}
