// One walk through a list serves every check waiting for that list when it starts
// (docs/performance.md, "Shared list reads"). A check joins only a walk that starts after it asked,
// so after its own writes were answered: that walk observes them. A check that asks while a walk is
// under way waits for the next one, which starts as soon as the current one ends.
import type { Exchange, ListAnswer } from './client.ts';
import type { WalksAndWrites } from './walks-and-writes.ts';

/** Walks the list once; `share` is told of every exchange, for the checks that joined the walk. */
export type ListWalker = (share: (exchange: Exchange) => void) => Promise<ListAnswer>;

interface Waiter {
  walk: ListWalker;
  /** Told of the exchanges of a walk that another check's call sent. */
  witness: (exchange: Exchange) => void;
  resolve: (list: ListAnswer) => void;
  reject: (error: unknown) => void;
}

interface Line {
  walking: boolean;
  waiting: Waiter[];
}

export class SharedListReads {
  private readonly lines = new Map<string, Line>();

  /**
   * The next walk of the list under `key` that starts from now on; `walk` is how this caller would
   * read it alone. A walk starts once `gate` lets it (no write of the suite under way), and serves
   * every check that asked until that moment.
   */
  read(
    key: string,
    gate: WalksAndWrites,
    walk: ListWalker,
    witness: (exchange: Exchange) => void,
  ): Promise<ListAnswer> {
    let line = this.lines.get(key);
    if (line === undefined) {
      line = { walking: false, waiting: [] };
      this.lines.set(key, line);
    }
    const joined = new Promise<ListAnswer>((resolve, reject) => line.waiting.push({ walk, witness, resolve, reject }));
    if (!line.walking) void this.walkFor(key, line, gate);
    return joined;
  }

  private async walkFor(key: string, line: Line, gate: WalksAndWrites): Promise<void> {
    line.walking = true;
    await gate.during('walk', () => this.walkOnce(line));
    line.walking = false;
    if (line.waiting.length > 0) void this.walkFor(key, line, gate);
    else this.lines.delete(key);
  }

  private async walkOnce(line: Line): Promise<void> {
    // Checks of other tests that asked in this same turn of the event loop may join too.
    await new Promise((resolve) => setImmediate(resolve));
    const batch = line.waiting.splice(0);
    const [first, ...joined] = batch;
    if (first !== undefined) {
      const exchanges: Exchange[] = [];
      try {
        // The first caller sends, and so counts, every request; the others judge the same pages.
        const list = await first.walk((exchange) => exchanges.push(exchange));
        for (const waiter of joined) for (const exchange of exchanges) waiter.witness(exchange);
        for (const waiter of batch) waiter.resolve(list);
      } catch (error) {
        for (const waiter of joined) for (const exchange of exchanges) waiter.witness(exchange);
        for (const waiter of batch) waiter.reject(error);
      }
    }
  }
}

// On globalThis, like the throttles: every copy of this module in one worker shares the reads of a target.
const shared = globalThis as { __zonesSharedListReads?: SharedListReads };

export function sharedListReads(): SharedListReads {
  shared.__zonesSharedListReads ??= new SharedListReads();
  return shared.__zonesSharedListReads;
}
