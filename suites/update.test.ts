// Updating zones, spec Endpoints rule 4: PUT addresses one zone by its id and may change name,
// coverage and status. Each update also sends the fields it keeps (zones.updateBody), so that a
// target that treats PUT as a full replacement is not mistaken for a broken one.
import { expect } from 'vitest';
import { currentTarget } from '../helpers/harness/current-target.ts';
import {
  expectZoneListed,
  expectZoneNotListed,
  expectZoneShown,
  expectZoneUnchanged,
} from '../helpers/harness/list-checks.ts';
import { ruleCases, ruleTest } from '../helpers/harness/rule-test.ts';

ruleTest('UPDATE-01', async ({ api, zones }) => {
  const zone = await zones.create();
  const name = zones.uniqueName();
  expect(await zones.update(zone, { name })).toSucceed();
  await expectZoneShown(api, zone.id, { name });
});

ruleTest('UPDATE-02', async ({ api, zones }) => {
  const zone = await zones.create({ coverage: zones.coverage(0) });
  const coverage = zones.coverage(1);
  expect(await zones.update(zone, { coverage })).toSucceed();
  await expectZoneShown(api, zone.id, { coverage });
});

const otherStatuses = currentTarget().statuses.filter((status) => status !== 'draft');

ruleCases(
  'UPDATE-03',
  otherStatuses.map((status) => ({ status, label: `draft to ${status}` })),
  async ({ status }, { api, zones }) => {
    const zone = await zones.create();
    // Which moves are allowed is not shown: moveTo finds a way, through another status if need be.
    expect(await zones.moveTo(zone, status)).toSucceed();
    // The filter and the list are this rule's own evidence: an unreadable one fails it. The filter goes
    // first, so that a list whose records show no status leaves nothing unjudged that the filter shows.
    await expectZoneListed(api, zone.id, { status, ruleReads: true });
    await expectZoneNotListed(api, zone.id, { status: 'draft', ruleReads: true });
    await expectZoneShown(api, zone.id, { status }, { ruleReads: true });
  },
);

ruleTest('UPDATE-04', async ({ api, zones, target }) => {
  // Twins: same name and coverage, so only the id can tell the target which one is meant.
  const name = zones.uniqueName();
  const coverage = zones.coverage(0);
  // The second one is updated, so a target that picks "the first zone with this name" is caught.
  const twin = await zones.create({ name, coverage });
  const updated = await zones.create({ name, coverage });
  const before = await zones.readBack(twin.id);
  const renamed = { ...updated, name: zones.uniqueName(), coverage: zones.coverage(1) };
  expect(await zones.update(updated, { name: renamed.name, coverage: renamed.coverage })).toSucceed();
  // The status as well, by a route the target allows: a move from draft need not be direct.
  const status = target.statuses.find((s) => s !== 'draft')!;
  expect(await zones.moveTo(renamed, status)).toSucceed();
  await expectZoneUnchanged(api, before);
});
