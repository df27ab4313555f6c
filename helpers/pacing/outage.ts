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

// Kept on globalThis so that every copy of these modules in one thread shares one outage and one throttle per target.
const shared = globalThis as { __zonesPerTarget?: Map<string, unknown> };
shared.__zonesPerTarget ??= new Map();
const registry = shared.__zonesPerTarget;

/** The target's one `kind` (its outage, its throttle) in this process, made at the first call. */
export function perTarget<T>(kind: string, baseUrl: string, make: () => T): T {
  const key = `${kind} ${baseUrl}`;
  if (!registry.has(key)) registry.set(key, make());
  return registry.get(key) as T;
}

export function outageFor(baseUrl: string): Outage {
  return perTarget('outage', baseUrl, () => new Outage());
}

/** For the self-tests, whose short-lived servers may get an earlier one's port and must not inherit its outage or pace. */
export function forgetTargets(): void {
  registry.clear();
}
