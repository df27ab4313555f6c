// The zones a test owns. Each is registered for clean-up the moment the create answer arrives, and
// torn down after the test whether it passed or failed. Tear-down problems are reported, not hidden.
import { randomBytes } from 'node:crypto';
import { type ExpectedFields, findZone, listsZone, namedIn, zonesOf } from '../client/list-lookups.ts';
import type { ZoneId, ZoneRecord } from '../client/records.ts';
import { PreconditionError } from '../client/records.ts';
import { isRefusal, isSuccess, type Settle, type ZoneAnswer, type ZonesClient } from '../client/zones-client.ts';
import { formatAnswers } from '../evidence/evidence.ts';
import { parseJson } from '../json.ts';
import { BOOKED_WITHOUT_HOOK, runBookingHook } from '../ownership/booking-hooks.ts';
import type { CleanupRecord } from '../ownership/cleanup-record.ts';
import { deleteAndConfirmGone } from '../ownership/final-sweep.ts';
import { PREFLIGHT_TAG, zoneName } from '../ownership/run-names.ts';
import { requireReadable } from './list-checks.ts';

// Unique across the workers of one run: the run id, a per-process tag and a counter.
const processTag = workerTag();
let nameCounter = 0;

/** Never the preflight's tag (helpers/runner/preflight.ts), so no zone of a test can share its name. */
function workerTag(): string {
  for (;;) {
    const tag = randomBytes(2).toString('hex');
    if (tag !== PREFLIGHT_TAG) return tag;
  }
}

type OwnedZone = { id: ZoneId; booked: boolean };

export class OwnZones {
  /** By id, and whether booked: clean-up unbooks it first. */
  private readonly owned = new Map<string, OwnedZone>();
  private readonly unfinished: Promise<unknown>[] = [];

  constructor(
    private readonly api: ZonesClient,
    private readonly runId: string,
  ) {
    api.whenCreated((id) => this.adopt(id));
  }

  uniqueName(): string {
    nameCounter += 1;
    return zoneName(this.runId, processTag, nameCounter);
  }

  /** The n-th configured coverage sample, parsed without loss. */
  coverage(n: number): unknown {
    const samples = this.api.config.coverageSamples;
    return parseJson(samples[n % samples.length]!);
  }

  /** A new zone; fields the answer does not show are what was sent (the specification shows no answer shapes). */
  async create(fields: { name?: string; coverage?: unknown } = {}): Promise<ZoneRecord> {
    const sent = { name: fields.name ?? this.uniqueName(), coverage: fields.coverage ?? this.coverage(0) };
    const known = new Set(this.owned.keys());
    const answer = await this.api.createZone(sent);
    if (!isSuccess(answer))
      throw new PreconditionError(
        `could not create a zone to check with (status ${answer.status})\n${formatAnswers(answer)}`,
      );
    let zone: ZoneRecord;
    if (answer.read.ok) {
      zone = answer.read.zone;
    } else {
      // Twins share a name: the new zone is the one listed under it that this test did not know yet.
      const found = (await this.api.adoptByName(sent.name)).filter((candidate) => !known.has(candidate.id.text));
      if (found.length !== 1)
        throw new PreconditionError(
          `the create answer shows no zone (${answer.read.problem}) and ${found.length} zones are listed under its name\n${formatAnswers(answer)}`,
        );
      zone = found[0]!;
    }
    return {
      ...zone,
      name: zone.name ?? sent.name,
      coverage: zone.coverage ?? sent.coverage,
      status: zone.status ?? 'draft',
    };
  }

  /** Every settable field, changed as given: a shop whose PUT replaces the zone is served as one that merges. */
  updateBody(zone: ZoneRecord, changes: ExpectedFields): Record<string, unknown> {
    return { name: zone.name, coverage: zone.coverage, status: zone.status ?? 'draft', ...changes };
  }

  /** Change name or coverage, keeping the rest. */
  async update(zone: ZoneRecord, changes: { name?: unknown; coverage?: unknown }): Promise<ZoneAnswer> {
    return (await this.putKeepingStatus(zone.id, this.updateBody(zone, changes))).at(-1)!;
  }

  /** A PUT of the whole zone; refused (a "move" to its own status), again without the status. Its answers, in order. */
  async putKeepingStatus(id: ZoneId, body: Record<string, unknown>): Promise<ZoneAnswer[]> {
    const whole = await this.api.updateZone(id, body);
    if (!isRefusal(whole)) return [whole];
    const { status: _kept, ...withoutStatus } = body;
    return [whole, await this.api.updateZone(id, withoutStatus)];
  }

  /** Move a zone to a status; refused, through each other status (which moves are allowed is not shown). */
  async moveTo(zone: ZoneRecord, status: string): Promise<ZoneAnswer> {
    const direct = await this.api.updateZone(zone.id, this.updateBody(zone, { status }));
    if (!isRefusal(direct)) return direct;
    const attempts = [direct];
    for (const via of this.api.config.statuses.filter((s) => s !== status && s !== 'draft')) {
      const first = await this.api.updateZone(zone.id, this.updateBody(zone, { status: via }));
      attempts.push(first);
      if (!isSuccess(first)) continue;
      const second = await this.api.updateZone(zone.id, this.updateBody(zone, { status }));
      if (!isRefusal(second)) return second;
      attempts.push(second);
      await this.api.updateZone(zone.id, this.updateBody(zone, { status: 'draft' }));
    }
    throw new PreconditionError(
      `the target refuses every way found to move a zone from draft to "${status}"\n${formatAnswers(...attempts)}`,
    );
  }

  /** A new zone moved to the given status by an update; the move itself is checked by UPDATE-03. */
  async createInStatus(status: string): Promise<ZoneRecord> {
    const zone = await this.create();
    if (status === 'draft') return zone;
    const answer = await this.moveTo(zone, status);
    if (!isSuccess(answer))
      throw new PreconditionError(
        `could not move a zone to status "${status}" (status ${answer.status})\n${formatAnswers(answer)}`,
      );
    return { ...zone, status };
  }

  /** Take a zone into this test's care, e.g. one a refused call created anyway. */
  private adopt(id: ZoneId): void {
    if (!this.owned.has(id.text)) this.owned.set(id.text, { id, booked: false });
  }

  markBooked(id: ZoneId): void {
    this.adopt(id);
    this.owned.get(id.text)!.booked = true;
  }

  /** Find zones by name in the full list: how the suite learns of zones created without an id in hand. */
  async adoptByName(name: string, settle: Settle = (list) => namedIn(list, name).length > 0): Promise<ZoneRecord[]> {
    const list = await this.api.listZones({ settle });
    // Finding nothing in a list that can't be read, or whose records show no names, proves nothing.
    requireReadable(list, this.api.config);
    const found = this.api.adopt(namedIn(list, name), name);
    if (found.length === 0 && zonesOf(list).some((zone) => zone.name === undefined)) {
      throw new PreconditionError('list records do not show names, so a zone cannot be recognised by its name');
    }
    return found;
  }

  /** The zone as the full list shows it now: the state every "unchanged" check compares with. */
  async readBack(id: ZoneId): Promise<ZoneRecord> {
    const list = await this.api.listZones({ settle: (l) => listsZone(l, id) });
    const zone = findZone(zonesOf(list), id);
    if (!zone)
      throw new PreconditionError(
        `zone ${id.text} is not in the list, so its state cannot be compared\n${formatAnswers(list)}`,
      );
    return zone;
  }

  /** Work that must end before the clean-up: a cancelled test ends at once, while its sequences may make zones. */
  awaitBeforeCleanUp(work: Promise<unknown>): void {
    this.unfinished.push(work);
  }

  async cleanUp(): Promise<CleanupRecord> {
    await Promise.allSettled(this.unfinished);
    const record: CleanupRecord = { created: this.owned.size, deleted: 0, leftBehind: [] };
    const ledger = this.api.ledger;
    for (const zone of this.owned.values()) {
      const reason = ledger.isDeleted(zone.id.text) ? undefined : await this.removeOne(zone);
      if (reason === undefined) {
        record.deleted += 1;
      } else {
        record.leftBehind.push({ id: zone.id.text, reason });
        ledger.record({ event: 'left', id: zone.id.text, reason });
      }
    }
    return record;
  }

  /** Delete one zone; undefined when it is gone, else why it stays. */
  private async removeOne(zone: OwnedZone): Promise<string | undefined> {
    const config = this.api.config;
    if (zone.booked) {
      if (!config.bookingCleanupHook) return BOOKED_WITHOUT_HOOK;
      try {
        await runBookingHook(config, config.bookingCleanupHook, zone.id, 'ZONES_BOOKING_CLEANUP_HOOK');
      } catch (error) {
        return error instanceof Error ? error.message.split('\n')[0] : String(error);
      }
    }
    const removal = await deleteAndConfirmGone(this.api, zone.id);
    return removal.gone ? undefined : removal.why;
  }
}
