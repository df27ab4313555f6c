// The operations of a sequence, judged by their answers and the reads that follow (an update's at once).
// Every PUT sends the whole zone, so merging and replacing shops are both served; what the specification
// leaves open (codes, bodies, which moves are allowed) is accepted as the example tests do.
import { namedIn, readableZones } from '../../client/list-lookups.ts';
import { PreconditionError } from '../../client/records.ts';
import { TransportError } from '../../client/shop-transport.ts';
import { isRefusal, isSuccess, type ListAnswer } from '../../client/zones-client.ts';
import { formatAnswers } from '../../evidence/evidence.ts';
import type { Answer } from '../../evidence/exchange.ts';
import { jsonEqual } from '../../json.ts';
import { runBookingHook } from '../../ownership/booking-hooks.ts';
import { requireReadable } from '../list-checks.ts';
import { firstFinding, judgeList, learnFrom } from './judge.ts';
import { Disagreement, type ModelSession } from './session.ts';
import { FIELDS, type Field, type ModelZone, newZone, type ZoneModel } from './zone-model.ts';

export interface Sequence {
  readonly session: ModelSession;
  readonly model: ZoneModel;
  /** Refused creates: a zone listed under one's unique name later was created after all. */
  refused: { name: string; asked: string; coverage: unknown }[];
  /** The zone updated last: what "several updates of the same zone in a row" pick. */
  lastUpdated?: ModelZone;
}

function fail(sequence: Sequence, rule: string, what: string, ...answers: Answer[]): never {
  throw new Disagreement(rule, what, [...sequence.model.steps], formatAnswers(...answers));
}

/** Zones listed under the name of a refused create exist after all: ours, and judged as new zones. */
function adoptRefused({ session, model, refused }: Sequence, list: ListAnswer): void {
  for (const create of [...refused]) {
    const found = session.real.api.adopt(namedIn(list, create.name), create.name);
    for (const record of found) {
      if (model.live.some((zone) => zone.id?.text === record.id.text)) continue;
      model.live.push({ ...newZone(model, create.name, create.coverage, create.asked), id: record.id });
    }
    if (found.length > 0) refused.splice(refused.indexOf(create), 1);
  }
}

/** Lists read (a lagging one until it agrees) and judged together, to report the most telling finding of any. */
async function readAndJudge(
  sequence: Sequence,
  filters: readonly (string | undefined)[],
  stepAnswers: Answer[] = [],
): Promise<void> {
  const { session, model } = sequence;
  const { api } = session.real;
  const findings = [];
  const pages: Answer[] = [];
  for (const filter of filters) {
    const agrees = (list: ListAnswer) => {
      const records = readableZones(list);
      return records !== undefined && judgeList(model, records, filter).findings.length === 0;
    };
    let list: ListAnswer;
    try {
      list = await api.listZones({ status: filter, settle: agrees });
      requireReadable(list, api.config);
    } catch (error) {
      // A filter that can't be read is only the means of these checks: the sequences go on without it.
      if (filter === undefined || !(error instanceof PreconditionError || error instanceof TransportError)) throw error;
      session.filtersLost ??= error;
      continue;
    }
    adoptRefused(sequence, list);
    const records = readableZones(list)!;
    const judgement = judgeList(model, records, filter);
    session.count(judgement.checked);
    pages.push(...list.pages);
    if (judgement.findings.length > 0) findings.push(...judgement.findings);
    else learnFrom(model, records);
  }
  const finding = firstFinding(findings);
  if (finding) fail(sequence, finding.rule, finding.what, ...stepAnswers, ...pages);
}

export async function createZone(sequence: Sequence, asked: string | undefined, coverageChoice: number): Promise<void> {
  const { session, model } = sequence;
  const { api, zones } = session.real;
  const name = zones.uniqueName();
  const coverage = zones.coverage(coverageChoice);
  const zone = newZone(model, name, coverage, asked);
  model.steps.push(asked === undefined ? `create ${zone.label}` : `create ${zone.label} asking for status ${asked}`);
  const announcedBefore = session.announced.length;
  const answer = await api.createZone({ name, coverage, ...(asked === undefined ? {} : { status: asked }) });
  const rule = asked === undefined ? 'CREATE-01' : 'CREATE-03';
  session.count([rule]);
  // A body that asks for another status may be refused: then no zone in another status came of it.
  if (asked !== undefined && isRefusal(answer)) {
    model.steps[model.steps.length - 1] += ` (refused with ${answer.status})`;
    sequence.refused.push({ name, asked, coverage });
    return;
  }
  if (!isSuccess(answer)) fail(sequence, rule, `the create of ${zone.label} answered ${answer.status}`, answer);
  const statusRule = asked === undefined ? 'CREATE-02' : 'CREATE-03';
  const shownStatus = answer.read.ok ? answer.read.zone.status : undefined;
  if (shownStatus !== undefined) {
    session.count([statusRule]);
    if (shownStatus !== 'draft')
      fail(sequence, statusRule, `the create answer shows ${zone.label} in status ${String(shownStatus)}`, answer);
  }
  // An answer without a zone: the client found it by its unique name, and said so.
  const found = session.announced.slice(announcedBefore);
  zone.id = answer.read.ok ? answer.read.zone.id : found.length === 1 ? found[0] : undefined;
  model.namesSent.set(name, zone);
  // A store that hands out max(id) + 1 gives a deleted id to the next zone: that id is this zone's now.
  model.deleted = model.deleted.filter((gone) => gone.id?.text !== zone.id?.text);
  model.live.push(zone);
}

/** Which fields an update changes: a new name, or which of the other coverage samples and statuses. */
export interface Change {
  name?: true;
  coverage?: number;
  status?: number;
}

type Values = Record<Field, unknown>;

/** Name or coverage with the status kept, as OwnZones.update sends it; judged by its last answer. */
async function updateKeepingStatus(
  sequence: Sequence,
  zone: ModelZone,
  values: Values,
  changed: readonly Field[],
  answers: Answer[],
): Promise<void> {
  const put = await sequence.session.real.zones.putKeepingStatus(zone.id!, values);
  answers.push(...put);
  const sentStatus = put.length === 1;
  sent(sequence, zone, values);
  const last = answers.at(-1)!;
  const rule = changed.includes('name') ? 'UPDATE-01' : 'UPDATE-02';
  sequence.session.count([rule]);
  if (!isSuccess(last)) fail(sequence, rule, `the update of ${zone.label} answered ${last.status}`, ...answers);
  settle(zone, values, changed, sentStatus);
}

/** A PUT went out: the zone's fields are what it sent, and every other zone has seen an update not its own. */
function sent(sequence: Sequence, zone: ModelZone, values: Values): void {
  sequence.model.namesSent.set(String(values.name), zone);
  for (const other of sequence.model.live) if (other !== zone) other.since.othersUpdated = true;
  zone.since.updated = true;
  zone.updated = true;
}

function settle(zone: ModelZone, values: Values, changed: readonly Field[], sentStatus: boolean): void {
  zone.expected.name = [values.name];
  zone.expected.coverage = [values.coverage];
  if (sentStatus) zone.expected.status = [values.status];
  for (const field of changed) zone.since.changed.add(field);
}

function changedValues({ session }: Sequence, zone: ModelZone, change: Change) {
  const { zones, api } = session.real;
  // An unsettled field's first value is the one it had before.
  const { name, coverage, status } = zone.expected;
  const before: Values = { name: name[0], coverage: coverage[0], status: status[0] ?? 'draft' };
  const values = { ...before };
  const changed = FIELDS.filter((field) => change[field] !== undefined);
  if (change.name) values.name = zones.uniqueName();
  if (change.coverage !== undefined) {
    const samples = api.config.coverageSamples.map((_, n) => zones.coverage(n));
    const others = samples.filter((sample) => !jsonEqual(sample, before.coverage));
    values.coverage = others[change.coverage % others.length];
  }
  if (change.status !== undefined) {
    const others = api.config.statuses.filter((status) => status !== before.status);
    values.status = others[change.status % others.length];
  }
  return { before, values, changed };
}

export async function updateZone(sequence: Sequence, zone: ModelZone, change: Change): Promise<void> {
  const { session, model } = sequence;
  const { before, values, changed } = changedValues(sequence, zone, change);
  const parts = changed.map((field) => (field === 'status' ? `status to ${String(values.status)}` : field));
  model.steps.push(`update ${zone.label}: ${parts.join(', ')}`);
  sequence.lastUpdated = zone;
  const answers: Answer[] = [];
  if (!changed.includes('status')) {
    await updateKeepingStatus(sequence, zone, values, changed, answers);
    // Its status's filter: the shortest list that shows it, and a zone its update landed on (same status).
    const known = session.filtersLost === undefined && zone.expected.status.length === 1;
    return readAndJudge(sequence, [known ? String(zone.expected.status[0]) : undefined], answers);
  }
  const move = await session.real.api.updateZone(zone.id!, values);
  answers.push(move);
  sent(sequence, zone, values);
  session.count(['UPDATE-03']);
  if (isSuccess(move)) {
    settle(zone, values, changed, true);
    // The filter the zone left and the one it joined: what UPDATE-03 and LIST-02 say must follow a move.
    const filters = session.filtersLost ? [undefined] : [String(before.status), String(values.status)];
    return readAndJudge(sequence, filters, answers);
  }
  const what = `the update of ${zone.label} to status ${String(values.status)} answered ${move.status}`;
  if (!isRefusal(move)) fail(sequence, 'UPDATE-03', what, move);
  // Which moves are allowed is not shown: a refused one is no failure, and what it changed the next read says.
  model.steps[model.steps.length - 1] += ` (the move was refused with ${move.status})`;
  zone.expected.status = [before.status, values.status];
  const rest = changed.filter((field) => field !== 'status');
  if (rest.length > 0) await updateKeepingStatus(sequence, zone, { ...values, status: before.status }, rest, answers);
  await readAndJudge(sequence, [undefined], answers);
}

export async function deleteZone(sequence: Sequence, zone: ModelZone, book: boolean): Promise<void> {
  const { session, model } = sequence;
  const { api, zones } = session.real;
  if (book && !zone.booked) {
    model.steps.push(`book ${zone.label}`);
    // Marked before the hook runs, so that clean-up unbooks it first whatever the hook did.
    zones.markBooked(zone.id!);
    zone.booked = true;
    await runBookingHook(api.config, api.config.bookingHook!, zone.id!, 'ZONES_BOOKING_HOOK');
  }
  model.steps.push(`delete ${zone.label}${zone.booked ? ' (booked)' : ''}`);
  const answer = await api.deleteZone(zone.id!);
  if (zone.booked) {
    session.count(['DELETE-02']);
    const what = `the delete of ${zone.label}, which has booking history, answered ${answer.status}`;
    if (!isRefusal(answer)) fail(sequence, 'DELETE-02', what, answer);
    zone.since.refusedDelete = true;
    return;
  }
  session.count(['DELETE-01']);
  if (!isSuccess(answer)) fail(sequence, 'DELETE-01', `the delete of ${zone.label} answered ${answer.status}`, answer);
  model.live.splice(model.live.indexOf(zone), 1);
  model.deleted.push(zone);
}

export async function listZones(sequence: Sequence, filter: string | undefined): Promise<void> {
  sequence.model.steps.push(filter === undefined ? 'list' : `list filtered by ${filter}`);
  await readAndJudge(sequence, [filter]);
}

/** What a sequence leaves is deleted before the next begins, so each starts from nothing of its own. */
export async function cleanUpSequence({ session, model }: Sequence): Promise<void> {
  const { api } = session.real;
  for (const zone of model.live) {
    if (zone.id === undefined) continue;
    try {
      if (zone.booked)
        await runBookingHook(api.config, api.config.bookingCleanupHook!, zone.id, 'ZONES_BOOKING_CLEANUP_HOOK');
      await api.deleteZone(zone.id);
    } catch {
      // The zones fixture tries again when the test ends, and reports what stays.
    }
  }
}
