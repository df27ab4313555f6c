// One walk through a list serves every check waiting for that list (docs/performance.md, "Shared list
// reads"). A read that starts after a check's writes were answered observes them. No write of the
// suite goes out while a walk is under way, nor a walk starts while one is (walks-and-writes.ts), so
// every write answered by the time a check asks was answered before the walk under way started: the
// check may join that walk, the pages read before it asked included. A check that must not take a
// walk that started before it asked (one that waited out the read-after-write window first) waits for
// the next walk, which starts as soon as the current one ends and serves every check that asked meanwhile.
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
  /** Checks for the next walk. */
  waiting: Waiter[];
  /** Checks the walk under way serves, from the moment its first page is asked for. */
  serving?: Waiter[];
}

export class SharedListReads {
  private readonly lines = new Map<string, Line>();

  /**
   * A walk of the list under `key`: the one under way, if `joinUnderWay`, else the next that starts;
   * `walk` is how this caller would read it alone. A walk starts once `gate` lets it (no write of the
   * suite under way, nor one asked before it), and serves every check that asks until it ends.
   */
  read(
    key: string,
    gate: WalksAndWrites,
    walk: ListWalker,
    witness: (exchange: Exchange) => void,
    joinUnderWay: boolean,
  ): Promise<ListAnswer> {
    let line = this.lines.get(key);
    if (line === undefined) {
      line = { walking: false, waiting: [] };
      this.lines.set(key, line);
    }
    const joining = joinUnderWay && line.serving !== undefined ? line.serving : line.waiting;
    const joined = new Promise<ListAnswer>((resolve, reject) => joining.push({ walk, witness, resolve, reject }));
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
    const [first] = batch;
    if (first === undefined) return;
    // Checks that ask from now until the walk ends join it too (`batch` grows while it walks).
    line.serving = batch;
    const exchanges: Exchange[] = [];
    let outcome: { list: ListAnswer } | { error: unknown };
    try {
      // The first caller sends, and so counts, every request; the others judge the same pages.
      outcome = { list: await first.walk((exchange) => exchanges.push(exchange)) };
    } catch (error) {
      outcome = { error };
    }
    line.serving = undefined;
    for (const waiter of batch.slice(1)) for (const exchange of exchanges) waiter.witness(exchange);
    for (const waiter of batch) 'list' in outcome ? waiter.resolve(outcome.list) : waiter.reject(outcome.error);
  }
}

// On globalThis, like the throttles: every copy of this module in one worker shares the reads of a target.
const shared = globalThis as { __zonesSharedListReads?: SharedListReads };

export function sharedListReads(): SharedListReads {
  shared.__zonesSharedListReads ??= new SharedListReads();
  return shared.__zonesSharedListReads;
}
