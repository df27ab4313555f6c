// Listing zones, spec Endpoints rule 2 and "What the service does" 3: the unfiltered list is every
// zone of the shop, and the filter by publish status returns exactly the zones in that status.
import { expect, inject } from 'vitest';
import { formatAnswers } from '../helpers/evidence.ts';
import { PreconditionError } from '../helpers/outcomes.ts';
import type { ListAnswer } from '../helpers/client.ts';
import { listsZone, readableZones, showsZone } from '../helpers/list-checks.ts';
import { findZone, type ZoneRecord } from '../helpers/records.ts';
import { ruleCases, ruleTest } from '../helpers/rule-test.ts';
import type { OwnZones } from '../helpers/zones.ts';

const statuses = inject('zonesTarget').statuses;

async function oneZonePerStatus(zones: OwnZones): Promise<ZoneRecord[]> {
  const made: ZoneRecord[] = [];
  for (const status of statuses) made.push(await zones.createInStatus(status));
  return made;
}

ruleTest('LIST-01', async ({ api, zones }) => {
  const made = await oneZonePerStatus(zones);
  const list = await api.listZones({ settle: (l) => made.every((zone) => listsZone(l, zone.id)) });
  for (const zone of made) expect(list).toListZone(zone.id);
});

ruleCases('LIST-02', statuses.map((status) => ({ status, label: `filtered by ${status}` })), async ({ status }, { api, zones, target }) => {
  const made = await oneZonePerStatus(zones);
  // What status each zone is in, the unfiltered list says; the filter must agree with it.
  const truth = await api.listZones({ settle: (l) => made.every((zone, i) => showsZone(l, zone.id, { status: statuses[i] })) });
  expect(truth).toSucceed();
  const listed = (zone: ZoneRecord) => findZone(readableZones(truth) ?? [], zone.id);
  // Records that show no status leave nothing to tell which zones belong under the filter.
  if (made.some((zone) => listed(zone) !== undefined && listed(zone)!.status === undefined)) {
    throw new PreconditionError('list records do not show status, so which zones belong under the filter cannot be told');
  }
  const statusOf = (zone: ZoneRecord) => listed(zone)?.status;
  const inStatus = made.filter((zone) => statusOf(zone) === status);
  const elsewhere = made.filter((zone) => statusOf(zone) !== status);
  const exact = (list: ListAnswer) =>
    (readableZones(list) ?? []).every((zone) => zone.status === status) &&
    inStatus.every((zone) => listsZone(list, zone.id)) &&
    elsewhere.every((zone) => !listsZone(list, zone.id));
  const filtered = await api.listZones({ status, settle: exact });
  expect(filtered).toSucceed();
  if (typeof filtered.zones === 'string') throw new Error(`the filtered list cannot be read: ${filtered.zones}\n\n${formatAnswers(filtered)}`);
  const strays = filtered.zones.filter((zone) => zone.status !== status);
  expect(strays.map((zone) => `${zone.id.text} (${String(zone.status)})`), `zones in other statuses answer the filter ${target.statusParam}=${status}\n\n${formatAnswers(...filtered.pages)}`).toEqual([]);
  for (const zone of inStatus) expect(filtered).toListZone(zone.id);
  for (const zone of elsewhere) expect(filtered).not.toListZone(zone.id);
  if (inStatus.length === 0) throw new PreconditionError(`no zone could be put in status ${status}, so the filter's completeness is unchecked\n\n${formatAnswers(truth)}`);
});
