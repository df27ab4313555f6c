export interface StoredZone {
  id: string;
  name: string;
  coverage: unknown;
  /** undefined only in a mutant that stores no status on create, as some mock servers do. */
  status: string | undefined;
  createdAt: string;
  updatedAt: string;
  bookings: number;
  // The rest only ever matter to a mutant; the reference keeps them at their neutral values.
  statusAtCreation: string;
  awaitingFirstUpdate: boolean;
  softDeleted: boolean;
  /** The name before the last rename. */
  nameBeforeRename?: string;
}

/** One shop's zones, in creation order (a Map keeps first-insertion order even when a key is re-set). */
export class ZoneStore {
  private readonly zones = new Map<string, StoredZone>();
  /** Each zone's place in creation order, never reused: what a list cursor can point after. */
  private readonly positions = new Map<string, number>();
  private nextPosition = 0;
  /** Told after every change: a mock that keeps its zones in a file writes it then. */
  onChange: () => void = () => {};

  find(id: string): StoredZone | undefined {
    return this.zones.get(id);
  }

  all(): StoredZone[] {
    return [...this.zones.values()];
  }

  put(zone: StoredZone): void {
    if (!this.positions.has(zone.id)) this.positions.set(zone.id, this.nextPosition++);
    this.zones.set(zone.id, zone);
    this.onChange();
  }

  positionOf(id: string): number {
    const position = this.positions.get(id);
    if (position === undefined) throw new Error(`zone ${id} was never stored`);
    return position;
  }

  remove(id: string): void {
    this.zones.delete(id);
    this.onChange();
  }
}
