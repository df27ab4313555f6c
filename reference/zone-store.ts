export interface StoredZone {
  id: string;
  name: string;
  coverage: unknown;
  /** undefined only in a mutant that stores no status on create, as some mock servers do. */
  status: string | undefined;
  createdAt: string;
  updatedAt: string;
  bookings: number;
  // The next three only ever matter to a mutant; the reference keeps them at their neutral values.
  statusAtCreation: string;
  awaitingFirstUpdate: boolean;
  softDeleted: boolean;
}

/** One shop's zones, in creation order (a Map keeps first-insertion order even when a key is re-set). */
export class ZoneStore {
  private readonly zones = new Map<string, StoredZone>();

  find(id: string): StoredZone | undefined {
    return this.zones.get(id);
  }

  all(): StoredZone[] {
    return [...this.zones.values()];
  }

  put(zone: StoredZone): void {
    this.zones.set(zone.id, zone);
  }

  remove(id: string): void {
    this.zones.delete(id);
  }
}
