// The zones a test owns. Each is registered for clean-up the moment the create answer arrives, and
// torn down after the test whether it passed or failed. Tear-down problems are reported, not hidden.
import { randomBytes } from 'node:crypto';
import { isSuccess, type Settle, type ZonesClient } from './client.ts';
import { BOOKED_WITHOUT_HOOK, runBookingHook } from './bookings.ts';
import { formatAnswers } from './evidence.ts';
import { parseJson } from './json.ts';
import { listsZone } from './list-checks.ts';
import type { CleanupRecord } from './meta.ts';
import { PreconditionError } from './outcomes.ts';
import { findZone, type ZoneId, type ZoneRecord } from './records.ts';

// Unique across the workers of one run: the run id, a per-process tag and a counter.
const processTag = randomBytes(2).toString('hex');
let nameCounter = 0;

/** The name of the n-th zone a process of a run makes: `npm run sweep --by-prefix` parses it back. */
export function zoneName(runId: string, tag: string, n: number): string {
  return `zc-${runId}-${tag}-${n}`;
}

interface OwnedZone {
  id: ZoneId;
  booked: boolean;
}

export class OwnZones {
  private readonly owned: OwnedZone[] = [];

  constructor(private readonly api: ZonesClient, private readonly runId: string) {
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

  /** A new zone of this test, with a unique name unless one is given. */
  async create(fields: { name?: string; coverage?: unknown } = {}): Promise<ZoneRecord> {
    const sent = { name: fields.name ?? this.uniqueName(), coverage: fields.coverage ?? this.coverage(0) };
    const answer = await this.api.createZone(sent);
    if (!isSuccess(answer) || typeof answer.zone === 'string') {
      const why = typeof answer.zone === 'string' ? answer.zone : `status ${answer.status}`;
      throw new PreconditionError(`could not create a zone to check with (${why})\n${formatAnswers(answer)}`);
    }
    return answer.zone;
  }

  /** A new zone moved to the given status by an update; the move itself is checked by UPDATE-03. */
  async createInStatus(status: string): Promise<ZoneRecord> {
    const zone = await this.create();
    if (status === 'draft') return zone;
    const answer = await this.api.updateZone(zone.id, { status });
    if (!isSuccess(answer)) {
      throw new PreconditionError(`could not move a zone to status "${status}" (status ${answer.status})\n${formatAnswers(answer)}`);
    }
    return zone;
  }

  /** Take a zone into this test's care, e.g. one a refused call created anyway. */
  adopt(id: ZoneId): void {
    if (!this.owned.some((zone) => zone.id.text === id.text)) this.owned.push({ id, booked: false });
  }

  markBooked(id: ZoneId): void {
    this.adopt(id);
    for (const zone of this.owned) if (zone.id.text === id.text) zone.booked = true;
  }

  /** Find zones by name in the full list: how the suite learns of zones created without an id in hand. */
  adoptByName(name: string, settle?: Settle): Promise<ZoneRecord[]> {
    return this.api.adoptByName(name, settle);
  }

  /** The zone as the full list shows it now: the state every "unchanged" check compares with. */
  async readBack(id: ZoneId): Promise<ZoneRecord> {
    const list = await this.api.listZones({ settle: (l) => listsZone(l, id) });
    const zone = typeof list.zones === 'string' ? undefined : findZone(list.zones, id);
    if (!zone) throw new PreconditionError(`zone ${id.text} is not in the list, so its state cannot be compared\n${formatAnswers(list)}`);
    return zone;
  }

  async cleanUp(): Promise<CleanupRecord> {
    const record: CleanupRecord = { created: this.owned.length, deleted: 0, leftBehind: [] };
    const ledger = this.api.ledger;
    for (const zone of this.owned) {
      if (ledger.isDeleted(zone.id.text)) {
        record.deleted += 1;
        continue;
      }
      const reason = await this.removeOne(zone);
      if (reason === undefined) {
        record.deleted += 1;
      } else {
        record.leftBehind.push({ id: zone.id.text, reason });
        ledger.recordLeft(zone.id.text, reason);
      }
    }
    return record;
  }

  /** Delete one zone; undefined when it is gone, else why it stays. */
  private async removeOne(zone: OwnedZone): Promise<string | undefined> {
    const config = this.api.config;
    try {
      if (zone.booked) {
        if (!config.bookingCleanupHook) return BOOKED_WITHOUT_HOOK;
        await runBookingHook(config, config.bookingCleanupHook, zone.id, 'ZONES_BOOKING_CLEANUP_HOOK');
      }
      const answer = await this.api.deleteZone(zone.id);
      if (isSuccess(answer)) return undefined;
      if (answer.status === 404 || answer.status === 410) {
        // Gone already, but only trust that if the list agrees.
        const list = await this.api.listZones();
        if (typeof list.zones !== 'string' && !findZone(list.zones, zone.id)) return undefined;
      }
      return `DELETE answered ${answer.status}`;
    } catch (error) {
      return error instanceof Error ? error.message.split('\n')[0] : String(error);
    }
  }
}
