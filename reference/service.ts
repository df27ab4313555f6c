import type { Fault } from './faults.ts';
import { createIdSource, type IdSource } from './ids.ts';
import { type Bucket, createBucket } from './rate-limit.ts';
import type { HouseStyle } from './styles.ts';
import { type StoredZone, ZoneStore } from './zone-store.ts';

/** Everything one server instance needs to answer: its own store, its spelling and its one defect. */
export interface ZoneService {
  store: ZoneStore;
  style: HouseStyle;
  fault: Fault | undefined;
  nextId: IdSource;
  recall: SequenceRecall;
  /** The style's rate limit, when it has one. */
  bucket?: Bucket;
}

/** What the sequence mutants carry from one request to the next; the reference answers without it. */
export interface SequenceRecall {
  /** The ids each status filter answered, kept until a create clears them (a deleted zone is not shown anyway). */
  filterCache: Map<string, string[]>;
  /** The zone deleted last, until a create puts it back. */
  lastDeleted?: StoredZone;
}

export function createZoneService(style: HouseStyle, fault: Fault | undefined): ZoneService {
  const store = new ZoneStore();
  const bucket = style.rateLimit && createBucket(style.rateLimit);
  const recall = { filterCache: new Map() };
  return { store, style, fault, nextId: createIdSource(style, store), recall, ...(bucket ? { bucket } : {}) };
}

export const draftStatus = (style: HouseStyle): string => style.statuses[0] ?? 'draft';

export const now = (): string => new Date().toISOString();

/**
 * A zone put straight into the store, in draft, past the API and any fault: what a shop holds before a
 * run (somebody else's zone, or one with booking history). For self-tests; no route leads here.
 */
export function plantZone(
  service: ZoneService,
  fields: { name: string; coverage: unknown; bookings?: number },
): string {
  const at = now();
  const id = service.nextId();
  const status = draftStatus(service.style);
  service.store.put({
    id,
    name: fields.name,
    coverage: fields.coverage,
    status,
    createdAt: at,
    updatedAt: at,
    bookings: fields.bookings ?? 0,
    statusAtCreation: status,
    awaitingFirstUpdate: false,
    softDeleted: false,
  });
  return id;
}
