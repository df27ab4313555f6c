// Robustness probes (MAY): how a shop copes with what no correct client sends. The specification
// shows none of this, so a miss is a warning and never changes the verdict. The probes stay on the
// run's own zones like every other test: a body that might make a zone carries a mark only this test
// sent, by which a zone made anyway is found, owned and removed by the fixture; a body that can carry
// no mark is judged by what appeared in the list, and what appeared is reported, never deleted on a
// guess; an unknown id is one of the test's own zones, deleted.
import { randomBytes, randomInt } from 'node:crypto';
import { expect } from 'vitest';
import {
  differingFields,
  listedZone,
  listsZone,
  readableZones,
  showsZone,
  zonesOf,
} from '../helpers/client/list-lookups.ts';
import type { ZoneRecord } from '../helpers/client/records.ts';
import { PreconditionError } from '../helpers/client/records.ts';
import { isRefusal, isSuccess, type ZonesClient } from '../helpers/client/zones-client.ts';
import { formatAnswers } from '../helpers/evidence/evidence.ts';
import type { Answer } from '../helpers/evidence/exchange.ts';
import { expectZoneShown, requireReadable } from '../helpers/harness/list-checks.ts';
import { type ConformanceContext, ruleCases, ruleTest } from '../helpers/harness/rule-test.ts';
import { canonicalJson } from '../helpers/json.ts';

/** The zones whose name is, or reads as, the mark: a name kept as sent, or turned into text. */
function carryingMark(zones: readonly ZoneRecord[], mark: string): ZoneRecord[] {
  return zones.filter((zone) => zone.name !== undefined && zone.name !== null && String(zone.name) === mark);
}

/**
 * A create that should have been refused. Whatever the answer, the list is searched for the mark the
 * body carried, and what turned up is owned at once, so the fixture removes it; then it is judged.
 */
async function expectRefusedMakingNothing({ api }: ConformanceContext, answer: Answer, mark: string): Promise<void> {
  const list = await api.listZones({ settle: 'after-timeout' });
  requireReadable(list, api.config);
  const made = api.adopt(carryingMark(zonesOf(list), mark), mark);
  expect(answer).toBeRefused();
  if (made.length === 0 && zonesOf(list).some((zone) => zone.name === undefined))
    throw new PreconditionError('list records do not show names, so a zone made anyway could not be recognised');
  expect(
    made.map((zone) => zone.id.text),
    `the refused create made a zone all the same: ${mark}\n\n${formatAnswers(answer, ...list.pages)}`,
  ).toEqual([]);
}

const isBlank = (name: unknown) => name === undefined || name === null || name === '';

/**
 * A create whose body can carry no mark (an empty name, no body at all). A zone it made can't be told
 * from anybody else's, so the lists before and after are compared, and a nameless zone that appeared
 * is reported and left alone. One the answer showed is the run's own, and the fixture removes it.
 */
async function expectRefusedMakingNothingNameless(api: ZonesClient, send: () => Promise<Answer>): Promise<void> {
  const before = await api.listZones();
  requireReadable(before, api.config);
  const answer = await send();
  const after = await api.listZones({ settle: 'after-timeout' });
  requireReadable(after, api.config);
  const known = new Set(zonesOf(before).map((zone) => zone.id.text));
  const appeared = zonesOf(after).filter(
    (zone) => !known.has(zone.id.text) && !api.ledger.owns(zone.id.text) && isBlank(zone.name),
  );
  expect(
    appeared.map((zone) => zone.id.text),
    `zones without a name appeared after the create; nothing proves them this run's, so they are left on the shop\n\n${formatAnswers(answer, ...after.pages)}`,
  ).toEqual([]);
  expect(answer).toBeRefused();
}

const malformed: { label: string; spoil: (json: string) => string }[] = [
  { label: 'a body cut off before its end', spoil: (json) => json.slice(0, -1) },
  // Lenient parsers (JSON5 and the like) take it; JSON does not.
  { label: 'a trailing comma', spoil: (json) => `${json.slice(0, -1)},}` },
];

ruleCases('ROBUST-01', malformed, async ({ spoil }, context) => {
  const { api, zones } = context;
  const name = zones.uniqueName();
  const answer = await api.createFromText(spoil(api.bodyText({ name, coverage: zones.coverage(0) })), name);
  await expectRefusedMakingNothing(context, answer, name);
});

ruleCases('ROBUST-02', [
  {
    label: 'a name that is a number',
    check: async (context) => {
      const { api, zones } = context;
      // 15 digits, random: a mark as unique as a name, and an exact integer however it is stored.
      const mark = `9${randomInt(1e13, 1e14)}`;
      const answer = await api.createFromText(api.bodyText({ name: Number(mark), coverage: zones.coverage(0) }));
      await expectRefusedMakingNothing(context, answer, mark);
    },
  },
  {
    label: 'a name that is a list',
    check: async (context) => {
      const { api, zones } = context;
      const name = zones.uniqueName();
      const answer = await api.createFromText(api.bodyText({ name: [name], coverage: zones.coverage(0) }));
      await expectRefusedMakingNothing(context, answer, name);
    },
  },
  {
    label: 'an empty name',
    check: ({ api, zones }) =>
      expectRefusedMakingNothingNameless(api, () =>
        api.createFromText(api.bodyText({ name: '', coverage: zones.coverage(0) })),
      ),
  },
  {
    label: 'no body at all',
    check: ({ api }) => expectRefusedMakingNothingNameless(api, () => api.createFromText(undefined)),
  },
]);

/**
 * An id that names no zone, and that nobody else's zone can take while the probe runs: one of the
 * test's own zones, deleted, with another of its zones made after it, so that a store handing out
 * max(id) + 1 has no reason to give the id out again. The client's guard writes to a deleted id only
 * while the list shows no zone under it, and to no id the ledger does not hold.
 */
async function unknownId({ api, zones }: ConformanceContext): Promise<ZoneRecord> {
  const gone = await zones.create();
  await zones.create();
  const answer = await api.deleteZone(gone.id);
  if (!isSuccess(answer))
    throw new PreconditionError(
      `could not delete a zone of this test to get an id that names no zone (status ${answer.status})\n${formatAnswers(answer)}`,
    );
  // A lagging list would still show the zone, and the guard would leave the id alone: wait it out.
  if (api.config.consistencyTimeoutMs > 0)
    await api.listZones({ settle: (list) => readableZones(list) !== undefined && !listsZone(list, gone.id) });
  return gone;
}

// The DELETE goes first: it can make nothing, while a PUT that creates what it can't find would
// leave the id in use for the other. Soft, so that one answer does not hide the other.
ruleTest('ROBUST-03', async (context) => {
  const { api, zones, expect } = context;
  const gone = await unknownId(context);
  expect.soft(await api.deleteZone(gone.id), 'DELETE').toHaveStatusIn([404]);
  expect
    .soft(await api.updateZone(gone.id, zones.updateBody(gone, { name: zones.uniqueName() })), 'PUT')
    .toHaveStatusIn([404]);
});

const ONE_MIB = 1024 * 1024;

ruleTest('ROBUST-04', async (context) => {
  const { api, zones } = context;
  const name = zones.uniqueName();
  const json = api.bodyText({ name, coverage: zones.coverage(0) });
  // Whitespace between tokens: still the same valid JSON, so its size is all that is wrong with it.
  const padding = ' '.repeat(ONE_MIB + 1 - Buffer.byteLength(json));
  const answer = await api.createFromText(`${json.slice(0, 1)}${padding}${json.slice(1)}`, name);
  await expectRefusedMakingNothing(context, answer, name);
});

ruleTest('ROBUST-05', async ({ api }) => {
  const status = `zc-no-such-status-${randomBytes(4).toString('hex')}`;
  const list = await api.listZones({ status });
  const empty = isSuccess(list) && list.read.ok && list.read.zones.length === 0;
  const why = isSuccess(list)
    ? list.read.ok
      ? `got ${list.read.zones.length} zone(s)`
      : `got a list that cannot be read: ${list.read.problem}`
    : `got ${list.status}`;
  expect(
    isRefusal(list) || empty,
    `expected a refusal (4xx) or an empty list for the status "${status}", ${why}\n\n${formatAnswers(...list.pages)}`,
  ).toBe(true);
});

/** Greek, Cyrillic, CJK, Arabic, Hebrew, Devanagari; emoji past the BMP, skin-toned, joined, a flag. All NFC. */
const MANY_SCRIPTS = 'Ζώνη Зона 区域 ゾーン منطقة אזור क्षेत्र 🚚🌍👩🏽‍💻🇪🇺';

ruleTest('ROBUST-06', async ({ api, zones }) => {
  const zone = await zones.create();
  const name = `${zones.uniqueName()} ${MANY_SCRIPTS}`;
  const answer = await zones.update(zone, { name });
  expect(answer).toSucceed();
  if (answer.read.ok && answer.read.zone.name !== undefined)
    expect(answer.read.zone.name, `the update answer's name\n\n${formatAnswers(answer)}`).toBe(name);
  await expectZoneShown(api, zone.id, { name });
});

const WRITERS = 4;

ruleTest('ROBUST-07', async ({ api, zones }) => {
  const zone = await zones.create();
  // Name and coverage change together in each version, so a zone that took one field from one update
  // and the other from another matches none of them.
  const versions = Array.from({ length: WRITERS }, (_, n) => ({
    name: zones.uniqueName(),
    coverage: zones.coverage(n),
  }));
  // Sent together: none waits for another's answer.
  const answers = await Promise.all(versions.map((version) => zones.update(zone, version)));
  const written = versions.filter((_, n) => !isRefusal(answers[n]!));
  // Every update refused: then the zone must be as it was.
  const allowed = written.length > 0 ? written : [{ name: zone.name, coverage: zone.coverage }];
  const list = await api.listZones({ settle: (l) => allowed.some((version) => showsZone(l, zone.id, version)) });
  requireReadable(list, api.config);
  const shown = listedZone(list, zone.id);
  if (!shown) {
    expect(list).toListZone(zone.id);
    return;
  }
  if (shown.name === undefined || shown.coverage === undefined)
    throw new PreconditionError('list records do not show name and coverage, so the outcome cannot be compared');
  const describe = (fields: { name: unknown; coverage: unknown }) =>
    `name ${canonicalJson(fields.name)} with coverage ${canonicalJson(fields.coverage)}`;
  expect(
    allowed.some((version) => differingFields(shown, version).length === 0),
    `zone ${zone.id.text} shows ${describe(shown)}, which no update wrote; written: ${allowed.map(describe).join('; ')}\n\n${formatAnswers(...answers, ...list.pages)}`,
  ).toBe(true);
});
