// Creating zones, spec "What the service does" 2 and Endpoints rule 3: a new zone is a draft, and
// POST always yields a draft, whatever the body asks for.
import { expect, inject } from 'vitest';
import { isRefusal, isSuccess } from '../helpers/client.ts';
import { formatAnswers } from '../helpers/evidence.ts';
import { expectZoneShown } from '../helpers/list-checks.ts';
import { ruleCases, ruleTest } from '../helpers/rule-test.ts';

ruleTest('CREATE-01', async ({ api, zones }) => {
  // The second sample, so that a target that stores a default coverage cannot pass by luck.
  const sent = { name: zones.uniqueName(), coverage: zones.coverage(1) };
  const answer = await api.createZone(sent);
  expect(answer).toSucceed();
  expect(typeof answer.zone === 'string' ? answer.zone : 'readable', `the create answer has no zone\n\n${formatAnswers(answer)}`).toBe('readable');
  if (typeof answer.zone === 'string') return;
  await expectZoneShown(api, answer.zone.id, sent);
});

ruleTest('CREATE-02', async ({ api, zones }) => {
  const answer = await api.createZone({ name: zones.uniqueName(), coverage: zones.coverage(0) });
  expect(answer).toSucceed();
  if (typeof answer.zone === 'string') throw new Error(`the create answer has no zone: ${answer.zone}\n\n${formatAnswers(answer)}`);
  // The answer need not show a status (shapes are not shown), but if it does, it must be draft.
  if (answer.zone.status !== undefined) expect(answer.zone.status, `the create answer shows another status\n\n${formatAnswers(answer)}`).toBe('draft');
  await expectZoneShown(api, answer.zone.id, { status: 'draft' });
});

const otherStatuses = inject('zonesTarget').statuses.filter((status) => status !== 'draft');

ruleCases('CREATE-03', otherStatuses.map((status) => ({ status, label: `a body asking for ${status}` })), async ({ status }, { api, zones }) => {
  const name = zones.uniqueName();
  const answer = await api.createZone({ name, coverage: zones.coverage(0), status });
  // Refusing the body conforms, as long as no zone came of it in another status.
  expect(isSuccess(answer) || isRefusal(answer), `expected success or a refusal, got ${answer.status}\n\n${formatAnswers(answer)}`).toBe(true);
  if (isSuccess(answer) && typeof answer.zone !== 'string' && answer.zone.status !== undefined) {
    expect(answer.zone.status, `the create answer shows status ${String(answer.zone.status)}\n\n${formatAnswers(answer)}`).toBe('draft');
  }
  // After a refusal nothing should appear, so wait the whole consistency window before looking.
  const made = await zones.adoptByName(name, isSuccess(answer) ? undefined : 'after-timeout');
  if (isSuccess(answer)) expect(made.length, `the created zone ${name} is not in the list\n\n${formatAnswers(answer)}`).toBeGreaterThan(0);
  for (const zone of made) await expectZoneShown(api, zone.id, { status: 'draft' });
});
