// Listing zones, spec Endpoints rule 2 and "What the service does" 3: the unfiltered list is every
// zone of the shop, and the filter by publish status returns exactly the zones in that status.
import { expect } from 'vitest';
import { listedZone, listsZone, showsZone } from '../helpers/client/list-lookups.ts';
import type { ZoneRecord } from '../helpers/client/records.ts';
import { PreconditionError } from '../helpers/client/records.ts';
import type { ListAnswer } from '../helpers/client/zones-client.ts';
import { formatAnswers } from '../helpers/evidence/evidence.ts';
import { currentTarget } from '../helpers/harness/current-target.ts';
import { describeList, likelyFilterCause, requireReadable, strays } from '../helpers/harness/list-checks.ts';
import type { OwnZones } from '../helpers/harness/own-zones.ts';
import { ruleCases, ruleTest } from '../helpers/harness/rule-test.ts';

const statuses = currentTarget().statuses;

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

ruleCases(
  'LIST-02',
  statuses.map((status) => ({ status, label: `filtered by ${status}` })),
  async ({ status }, { api, zones, target }) => {
    const made = await oneZonePerStatus(zones);
    // What status each zone is in, the unfiltered list says; the filter must agree with it. That list is
    // only the means here: when it can't be read, the filter is not judged.
    const truth = await api.listZones({
      settle: (l) => made.every((zone, i) => showsZone(l, zone.id, { status: statuses[i] })),
    });
    requireReadable(truth, target);
    const statusOf = (zone: ZoneRecord) => listedZone(truth, zone.id)?.status;
    // A zone whose record shows no status may belong under any filter (a shop may leave out default
    // values), so it is judged under none; the zones that do show one are.
    const inStatus = made.filter((zone) => statusOf(zone) === status);
    const elsewhere = made.filter((zone) => statusOf(zone) !== undefined && statusOf(zone) !== status);
    const exact = (list: ListAnswer) =>
      strays(list).length === 0 &&
      inStatus.every((zone) => listsZone(list, zone.id)) &&
      elsewhere.every((zone) => !listsZone(list, zone.id));
    const filtered = await api.listZones({ status, settle: exact });
    expect(filtered).toSucceed();
    if (!filtered.read.ok)
      throw new Error(
        `${describeList(target, status)} cannot be read: ${filtered.read.problem}\n\n${formatAnswers(filtered)}`,
      );
    const found = strays(filtered);
    // Only once the filter is seen to fail: one more read, to say whether a setting is the likelier cause.
    const strayed = found.length > 0 || elsewhere.some((zone) => listsZone(filtered, zone.id));
    const cause = strayed ? await likelyFilterCause(api) : undefined;
    expect(
      found,
      `${cause}; zones in other statuses answer ${describeList(target, status)}\n\n${formatAnswers(...filtered.pages)}`,
    ).toEqual([]);
    for (const zone of inStatus) expect(filtered).toListZone(zone.id);
    for (const zone of elsewhere) expect(filtered).not.toListZone(zone.id, cause);
    if (inStatus.length === 0)
      throw new PreconditionError(
        `no zone of this run shows status ${status} in the list, so the filter's completeness is unchecked\n\n${formatAnswers(truth)}`,
      );
  },
);
