// Authentication, spec section "Authentication": every operation requires it, and a request
// without it is not a valid call. A wrong credential counts as no credential.
import { expect } from 'vitest';
import { readZoneList } from '../helpers/client/records.ts';
import type { ZonesClient } from '../helpers/client/zones-client.ts';
import { formatAnswers } from '../helpers/evidence/evidence.ts';
import type { AuthMode } from '../helpers/evidence/exchange.ts';
import { expectZoneUnchanged } from '../helpers/harness/list-checks.ts';
import type { OwnZones } from '../helpers/harness/own-zones.ts';
import { ruleCases, ruleTest } from '../helpers/harness/rule-test.ts';

async function expectListRefusedWithoutZoneData(
  api: ZonesClient,
  zones: OwnZones,
  auth: AuthMode,
  status?: string,
): Promise<void> {
  // The name the suite sent, not the one the shop answered with: a mock that answers every create
  // with one example zone (name "string") would otherwise find that word in any error text.
  const name = zones.uniqueName();
  await zones.create({ name });
  const answer = await api.listZones({ auth, status });
  expect(answer).toBeRefused();
  // Neither the unique name of a zone that exists right now, nor any list of zone records, may
  // come with the refusal.
  expect(answer.exchange.responseBody.includes(name), `the refusal carries zone data\n\n${formatAnswers(answer)}`).toBe(
    false,
  );
  const records = readZoneList(api.config, answer.body);
  expect(records.ok && records.zones.length > 0, `the refusal carries zone records\n\n${formatAnswers(answer)}`).toBe(
    false,
  );
}

// The filtered list is a code path of its own on many servers, and the new zone is a draft, so the
// draft filter would show it.
ruleCases(
  'AUTH-01',
  [
    { status: undefined, label: 'the unfiltered list' },
    { status: 'draft', label: 'the list filtered by draft' },
  ],
  async ({ status }, { api, zones }) => {
    await expectListRefusedWithoutZoneData(api, zones, 'none', status);
  },
);

ruleTest('AUTH-02', async ({ api, zones }) => {
  const answer = await api.createZone({ name: zones.uniqueName(), coverage: zones.coverage(0) }, 'none');
  expect(answer).toBeRefused();
});

ruleTest('AUTH-03', async ({ api, zones }) => {
  const zone = await zones.create();
  const answer = await api.updateZone(zone.id, zones.updateBody(zone, { name: zones.uniqueName() }), 'none');
  expect(answer).toBeRefused();
});

ruleTest('AUTH-04', async ({ api, zones }) => {
  const zone = await zones.create();
  const answer = await api.deleteZone(zone.id, 'none');
  expect(answer).toBeRefused();
});

const credentials = [
  { auth: 'none', what: 'no credential' },
  { auth: 'wrong', what: 'a wrong credential' },
] as const;

// Whether or not the target refused, an unauthenticated call must leave no trace; the state is read
// back with the real credential.
ruleCases(
  'AUTH-05',
  credentials.map((c) => ({ ...c, label: `a create with ${c.what} creates nothing` })),
  async ({ auth }, { api, zones }) => {
    const name = zones.uniqueName();
    await api.createZone({ name, coverage: zones.coverage(0) }, auth);
    // The read-back must be readable, or finding nothing would prove nothing (adoptByName sees to it).
    const created = await zones.adoptByName(name, 'after-timeout');
    expect(
      created.map((zone) => zone.id.text),
      `a zone named ${name} exists after the refused create`,
    ).toEqual([]);
  },
);

ruleCases(
  'AUTH-05',
  credentials.map((c) => ({ ...c, label: `an update with ${c.what} changes nothing` })),
  async ({ auth }, { api, zones, target }) => {
    const zone = await zones.create();
    const before = await zones.readBack(zone.id);
    const status = target.statuses.find((s) => s !== 'draft');
    await api.updateZone(zone.id, { name: zones.uniqueName(), coverage: zones.coverage(1), status }, auth);
    await expectZoneUnchanged(api, before);
  },
);

ruleCases(
  'AUTH-05',
  credentials.map((c) => ({ ...c, label: `a delete with ${c.what} deletes nothing` })),
  async ({ auth }, { api, zones }) => {
    const zone = await zones.create();
    const before = await zones.readBack(zone.id);
    await api.deleteZone(zone.id, auth);
    await expectZoneUnchanged(api, before);
  },
);

ruleCases('AUTH-06', [
  {
    label: 'GET list with a wrong credential is refused',
    check: ({ api, zones }) => expectListRefusedWithoutZoneData(api, zones, 'wrong'),
  },
  {
    label: 'POST create with a wrong credential is refused',
    check: async ({ api, zones }) => {
      expect(await api.createZone({ name: zones.uniqueName(), coverage: zones.coverage(0) }, 'wrong')).toBeRefused();
    },
  },
  {
    label: 'PUT update with a wrong credential is refused',
    check: async ({ api, zones }) => {
      const zone = await zones.create();
      expect(
        await api.updateZone(zone.id, zones.updateBody(zone, { name: zones.uniqueName() }), 'wrong'),
      ).toBeRefused();
    },
  },
  {
    label: 'DELETE delete with a wrong credential is refused',
    check: async ({ api, zones }) => {
      const zone = await zones.create();
      expect(await api.deleteZone(zone.id, 'wrong')).toBeRefused();
    },
  },
]);
