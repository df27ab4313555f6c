// What every sequence of a model-based run shares: the budget, the checks per rule, the failures, why it stopped.
import type { ZoneId } from '../../client/records.ts';
import type { ZonesClient } from '../../client/zones-client.ts';
import type { ModelBudget } from '../../config.ts';
import type { OwnZones } from '../own-zones.ts';

/** What the sequences act on: the shop through the test's client, and the test's own zones. */
export interface RealWorld {
  api: ZonesClient;
  zones: OwnZones;
  /** Aborted when the run is stopped (SIGINT, SIGTERM) or the test runs out of time: no operation starts after. */
  signal?: AbortSignal;
  /** The requests the test sent so far, and what the budget counts if not those (model-tests.ts). */
  requestsSoFar: () => number;
  spentSoFar?: () => number;
}

/** The target answered something the model rules out: a failure of `rule`, with the sequence that led there. */
export class Disagreement extends Error {
  constructor(
    readonly rule: string,
    readonly what: string,
    readonly steps: readonly string[],
    readonly evidence: string,
  ) {
    super(what);
    this.name = 'Disagreement';
  }
}

export class ModelSession {
  readonly checks = new Map<string, number>();
  readonly firstFailures = new Map<string, Disagreement>();
  /** The rule of the first disagreement: shrinking looks for shorter sequences that break this one. */
  primary?: string;
  /** Why the sequences could not go on: their tests end with it, not verified as an example test would be. */
  stopped?: Error;
  /** An error of the suite itself (the ownership guard, say), neither a pass nor a failure. */
  defect?: unknown;
  /** Why the filters could not be read: the sequences read the whole list instead, and LIST-02 is not verified. */
  filtersLost?: Error;
  sequences = 0;
  /** Ids the client announced as made by a create, in order: a create answer without a zone names its zone here. */
  readonly announced: ZoneId[] = [];
  /** Requests the sequences sent, their clean-up included. */
  readonly requests: () => number;
  /** What the budget counts: the requests sent, or under drift the reads of the shop (model-tests.ts). */
  private readonly spent: () => number;
  private spendUntil: number;

  constructor(
    readonly real: RealWorld,
    readonly budget: ModelBudget,
  ) {
    const { requestsSoFar, spentSoFar = requestsSoFar } = real;
    const [requestsBefore, spentBefore] = [requestsSoFar(), spentSoFar()];
    this.requests = () => requestsSoFar() - requestsBefore;
    this.spent = () => spentSoFar() - spentBefore;
    this.spendUntil = budget.maxRequests;
    real.api.whenCreated((id) => this.announced.push(id));
  }

  /** Whether one more operation may start, with `reserved` requests kept back for what must follow it. */
  mayStart(reserved = 0): boolean {
    const going = this.stopped === undefined && this.defect === undefined && this.real.signal?.aborted !== true;
    return going && this.spent() + reserved < this.spendUntil;
  }

  count(rules: readonly string[]): void {
    for (const rule of rules) this.checks.set(rule, (this.checks.get(rule) ?? 0) + 1);
  }

  /** Keeps the first disagreement of each rule; the first of all opens the shrinking budget. */
  record(disagreement: Disagreement): void {
    if (this.primary === undefined) {
      this.primary = disagreement.rule;
      this.allow(this.budget.shrinkRequests);
    }
    if (!this.firstFailures.has(disagreement.rule)) this.firstFailures.set(disagreement.rule, disagreement);
  }

  /** A few more requests, from now: to shrink a failure, or for a sequence that checks what no random one reached. */
  allow(requests: number): void {
    this.spendUntil = this.spent() + requests;
  }
}
