// The list checks the suites call: the list is re-read until it shows what was written, then judged by
// the matchers; a list only the means of a check, or a field no record shows, leaves it not verified.
import { expect } from 'vitest';
import { type ExpectedFields, listedZone, listsZone, readableZones, showsZone } from '../client/list-lookups.ts';
import { PreconditionError } from '../client/precondition.ts';
import type { ZoneId, ZoneRecord } from '../client/records.ts';
import { isRefusal, isSuccess, type ListAnswer, type Settle, type ZonesClient } from '../client/zones-client.ts';
import type { TargetConfig } from '../config.ts';
import { formatAnswers } from '../evidence/evidence.ts';
import { describeList, filterSettingsHint, likelyFilterCause } from './filter-settings.ts';

/** A list read that is only the means of a check: unreadable, it leaves the check not verified, not failed. */
export function requireReadable(list: ListAnswer, config: TargetConfig): void {
  const why = !isSuccess(list)
    ? `answered ${list.status}`
    : list.read.ok
      ? undefined
      : `cannot be read: ${list.read.problem}`;
  if (why === undefined) return;
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
