// While the suite walks a list page by page, none of its own writes goes out, and while one of its
// writes is under way no walk starts. With tests side by side, a shop that pages by offset would
// otherwise skip a zone, or show one twice, when a test beside the walk deleted or created one
// between two pages: a "not listed" check could then pass on a zone that is there, or a read-back
// miss one that is. Walks go together, and so do writes; each kind waits for the other, in the
// order they asked, so neither waits for ever.
//
// Some work goes alone, with nothing else of the suite under way: a write decided on a read that
// must still hold when it goes out (client.ts, a write to an id this run deleted). Creates are counted,
// so that such a write knows whether one ended since its read and could have taken the id.
type Kind = 'walk' | 'write' | 'alone';

export class WalksAndWrites {
  private running: Kind | undefined;
  private active = 0;
  private readonly queue: { kind: Kind; go: () => void }[] = [];
  private creates = 0;

  /**
   * How many creates have gone out and ended so far, answered or not. While this stays the same, no
   * create of the suite can have taken an id since.
   */
  get createsEnded(): number {
    return this.creates;
  }

  /** A write, counted among the creates when it is one. */
  write<T>(create: boolean, work: () => Promise<T>): Promise<T> {
    return this.during('write', async () => {
      try {
        return await work();
      } finally {
        if (create) this.creates += 1;
      }
    });
  }

  async during<T>(kind: Kind, work: () => Promise<T>): Promise<T> {
    await this.enter(kind);
    try {
      return await work();
    } finally {
      this.leave();
    }
  }

  private enter(kind: Kind): Promise<void> {
    // Joins what is under way only while nobody of another kind is waiting.
    if (this.queue.length === 0 && (this.active === 0 || (this.running === kind && kind !== 'alone'))) {
      this.running = kind;
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise((go) => this.queue.push({ kind, go }));
  }

  private leave(): void {
    this.active -= 1;
    if (this.active > 0) return;
    this.running = this.queue[0]?.kind;
    // The next in line goes, with every one of its kind queued right behind it (none behind work alone).
    while (this.running !== undefined && this.queue[0]?.kind === this.running) {
      this.active += 1;
      this.queue.shift()?.go();
      if (this.running === 'alone') break;
    }
  }
}

// On globalThis, like the throttles: every client of a target in one worker takes part.
const shared = globalThis as { __zonesWalksAndWrites?: Map<string, WalksAndWrites> };
shared.__zonesWalksAndWrites ??= new Map();
const registry = shared.__zonesWalksAndWrites;

export function walksAndWritesFor(baseUrl: string): WalksAndWrites {
  let known = registry.get(baseUrl);
  if (known === undefined) {
    known = new WalksAndWrites();
    registry.set(baseUrl, known);
  }
  return known;
}

/** Forgets every target's gate, for the same processes as forgetThrottles (throttle.ts). */
export function forgetWalksAndWrites(): void {
  registry.clear();
}
