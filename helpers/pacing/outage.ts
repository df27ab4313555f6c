// A shop that stops answering for itself (a gateway's 502 to 504, or no answer at all) is not a shop
// that breaks rules: the run waits for it within ZONES_OUTAGE_BUDGET_MS from the first such answer, as a
// nightly job has a time slot. Once it is spent, no request is waited for again. One per target and
// process, like the throttle: an outage that began in one test goes on counting in the next.

export interface OutageStart {
  /** ISO 8601, and what came back then as a report line says it: `GET ... answered 503 ...`. */
  since: string;
  what: string;
}

export class Outage {
  private began: { at: number; what: string } | undefined;

  /** The shop answered for itself: whatever outage there was is over, and the clock starts again. */
  answered(): void {
    this.began = undefined;
  }

  missed(what: string): void {
    this.began ??= { at: Date.now(), what };
  }

  /** One that began elsewhere (the worker saw it, the launcher sweeps after it): the sweep does not wait a whole budget again. */
  adopt(start: OutageStart): void {
    this.began ??= { at: Date.parse(start.since), what: start.what };
  }

  /** What is left of the budget: all of it while the shop answers, 0 once spent. */
  leftMs(budgetMs: number): number {
    if (this.began === undefined) return budgetMs;
    return Math.max(0, budgetMs - (Date.now() - this.began.at));
  }

  get start(): OutageStart | undefined {
    return this.began && { since: new Date(this.began.at).toISOString(), what: this.began.what };
  }
}

// Kept on globalThis so that every copy of this module in one thread shares one outage per target.
const shared = globalThis as { __zonesOutages?: Map<string, Outage> };
shared.__zonesOutages ??= new Map();
const registry = shared.__zonesOutages;

export function outageFor(baseUrl: string): Outage {
  if (!registry.has(baseUrl)) registry.set(baseUrl, new Outage());
  return registry.get(baseUrl)!;
}

/** Forgets every target's outage: for self-tests whose short-lived servers may get an earlier one's port. */
export function forgetOutages(): void {
  registry.clear();
}
