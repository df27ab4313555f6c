// Creating zones, spec "What the service does" 2 and Endpoints rule 3: a new zone is a draft, and
// POST always yields a draft, whatever the body asks for.
import { expect } from 'vitest';
import type { ZoneId } from '../helpers/client/records.ts';
import { isRefusal, isSuccess, type ZoneAnswer } from '../helpers/client/zones-client.ts';
import { formatAnswers } from '../helpers/evidence/evidence.ts';
import { currentTarget } from '../helpers/harness/current-target.ts';
import { expectZoneShown } from '../helpers/harness/list-checks.ts';
import type { OwnZones } from '../helpers/harness/own-zones.ts';
import { ruleCases, ruleTest } from '../helpers/harness/rule-test.ts';

ruleTest('CREATE-01', async ({ api, zones }) => {
  // The second sample, so that a target that stores a default coverage cannot pass by luck.
  const sent = { name: zones.uniqueName(), coverage: zones.coverage(1) };
  const answer = await api.createZone(sent);
  expect(answer).toSucceed();
  const id = await createdId(zones, answer, sent.name);
  // The list is this rule's own evidence ("the zone appears in the list"), so an unreadable one fails it.
  await expectZoneShown(api, id, sent, { ruleReads: true });
});

ruleTest('CREATE-02', async ({ api, zones }) => {
  const name = zones.uniqueName();
  const answer = await api.createZone({ name, coverage: zones.coverage(0) });
  expect(answer).toSucceed();
  // The answer need not show a status (shapes are not shown), but if it does, it must be draft.
  if (answer.read.ok && answer.read.zone.status !== undefined) {
    expect(answer.read.zone.status, `the create answer shows another status\n\n${formatAnswers(answer)}`).toBe('draft');
  }
  await expectZoneShown(api, await createdId(zones, answer, name), { status: 'draft' });
});

/** The new zone's id: from the answer, or, when the answer shows no zone, from the list by its unique name. */
async function createdId(zones: OwnZones, answer: ZoneAnswer, name: string): Promise<ZoneId> {
  if (answer.read.ok) return answer.read.zone.id;
  const found = await zones.adoptByName(name);
  expect(
    found.length,
    `the create answer shows no zone (${answer.read.problem}) and the list holds ${found.length} zones named ${name}\n\n${formatAnswers(answer)}`,
  ).toBe(1);
  return found[0]!.id;
}

const otherStatuses = currentTarget().statuses.filter((status) => status !== 'draft');

ruleCases(
  'CREATE-03',
  otherStatuses.map((status) => ({ status, label: `a body asking for ${status}` })),
  async ({ status }, { api, zones }) => {
    const name = zones.uniqueName();
    const answer = await api.createZone({ name, coverage: zones.coverage(0), status });
    // Refusing the body conforms, as long as no zone came of it in another status.
    expect(
      isSuccess(answer) || isRefusal(answer),
      `expected success or a refusal, got ${answer.status}\n\n${formatAnswers(answer)}`,
    ).toBe(true);
    if (isSuccess(answer) && answer.read.ok && answer.read.zone.status !== undefined) {
      expect(
        answer.read.zone.status,
        `the create answer shows status ${String(answer.read.zone.status)}\n\n${formatAnswers(answer)}`,
      ).toBe('draft');
    }
    // After a refusal nothing should appear, so wait the whole consistency window before looking.
    const made = await zones.adoptByName(name, isSuccess(answer) ? undefined : 'after-timeout');
    if (isSuccess(answer))
      expect(made.length, `the created zone ${name} is not in the list\n\n${formatAnswers(answer)}`).toBeGreaterThan(0);
    for (const zone of made) await expectZoneShown(api, zone.id, { status: 'draft' });
  },
);
