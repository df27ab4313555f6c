// Politeness towards the target. A 429 means the request was not processed, so it is waited out
// (Retry-After, fractional seconds allowed, else exponential back-off) and sent again; inside that
// window nothing at all goes to the target. ZONES_MAX_RPS paces requests before any 429 comes.
//
// The throttle also learns the shop's pace, so that one 429 is not followed by a hundred more:
// - A 429 closes a cycle that began when the shop last let requests through again (or at the first
//   request) and ends when it will again (its Retry-After). The requests it took over that span are
//   the rate it allows, and later requests are paced a little under it. Right after a burst has
//   emptied a token bucket the first cycle still holds the burst, so it overestimates; the next 429
//   then comes soon, and its cycle, from empty bucket to empty bucket, is the refill rate itself.
//   Learning 1/Retry-After instead would make a fixed window (Retry-After up to a minute) crawl;
//   a cycle counts everything the window let through, so the pace never drops below what the run
//   measured the shop to take.
// - Rate-limit headers (rate-limit-headers.ts) say so before any 429: no request goes out while an
//   announced quota is used up, nor while a Shopify bucket is full.
//
// One throttle per target and process. A certification sends its requests to one target from one
// worker, one test at a time (see helpers/runner/run-suites.ts), so this one throttle sees every
// request there is. Requests take their turn in the order they asked. Those a test sends together on
// purpose (ROBUST-07's concurrent updates) go together while the shop has shown no sign of a limit;
// after one, one at a time, since a request already on its way could land inside a window.
import { type BucketHint, readRateLimitHeaders } from './rate-limit-headers.ts';

const SAFETY_MARGIN_MS = 25;
const MAX_BACKOFF_MS = 30_000;
/**
 * How far under the learned rate requests are paced. A cycle's ends are known to within the few
 * milliseconds an answer takes to come back, about 1% of the half-second cycle behind a limit of 2
 * requests per second; every 1% costs that much of a run's time, so no more.
 */
const HEADROOM = 0.01;
/**
 * A 503's Retry-After announces an outage, and an outage can last hours. One wait is at most this
 * long, so that the shop is asked again now and then; how long the whole outage is waited for is
 * ZONES_OUTAGE_BUDGET_MS (helpers/pacing/outage.ts), after which the run stops.
 */
const MAX_UNAVAILABLE_WAIT_MS = 30_000;
/** A header is a hint, not a refusal: past this the shop is asked again, and its 429 would decide. */
const MAX_HINTED_HOLD_MS = 60_000;
/** Whole requests a Shopify bucket must be seen to leak before its leak rate is trusted. */
const MIN_LEAK_EVIDENCE = 3;

interface Cycle {
  start: number;
  accepted: number;
}

export class Throttle {
  private blockedUntil = 0;
  private nextSlot = 0;
  /** Requests per second the shop was measured to take, 0 until a 429 closed a cycle. */
  private measuredRps = 0;
  private cycle: Cycle | undefined;
  private closedCycle: Cycle | undefined;
  /** Where counting a Shopify bucket's leak began: its fill then, and the requests answered since. */
  private leakCount: { at: number; used: number; answered: number } | undefined;
  private leakIntervalMs = 0;
  /** 429 answers received. */
  throttled = 0;
  private inFlight = 0;
  private readonly waitingForSlot: (() => void)[] = [];
  /** The shop has shown a limit (or ZONES_MAX_RPS set one): from then on, one request at a time. */
  private limitSeen: boolean;
  private lastTurn: Promise<void> = Promise.resolve();

  constructor(
    private readonly maxRps: number,
    private readonly clock: () => number = Date.now,
  ) {
    this.limitSeen = maxRps > 0;
  }

  /** How many requests may be under way at once, now. */
  get inFlightLimit(): number {
    return this.limitSeen ? 1 : Number.POSITIVE_INFINITY;
  }

  /**
   * Resolves when one more request may be under way and may be sent; `release` once its answer (or
   * its lack of one) has been told to the throttle. Callers pass one at a time, in the order they asked.
   */
  async take(): Promise<void> {
    const turn = this.lastTurn.then(async () => {
      while (this.inFlight >= this.inFlightLimit) await new Promise<void>((wake) => this.waitingForSlot.push(wake));
      this.inFlight += 1;
      await this.ready();
    });
    this.lastTurn = turn.catch(() => undefined);
    await turn;
  }

  release(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.waitingForSlot.shift()?.();
  }

  /** The rate learned from the shop's 429s, in requests per second; 0 while none came. */
  get learnedRps(): number {
    return this.measuredRps;
  }

  /** Resolves when a request may be sent: outside any announced window, and on pace. */
  async ready(): Promise<void> {
    for (;;) {
      const wait = this.nextSendAt() - this.clock();
      if (wait <= 0) break;
      await sleep(wait);
    }
    this.sending();
  }

  /** The earliest moment the next request may go out. */
  nextSendAt(): number {
    return Math.max(this.blockedUntil, this.nextSlot);
  }

  /** A request goes out now. */
  sending(): void {
    const now = this.clock();
    this.cycle ??= { start: now, accepted: 0 };
    const interval = this.intervalMs();
    if (interval > 0) this.nextSlot = now + interval;
  }

  /** A 429 arrived: block for its Retry-After (else an exhausted quota's reset, else back-off), and learn the pace. */
  tooManyRequests(headers: Record<string, string>, attempt: number): number {
    this.throttled += 1;
    this.limitSeen = true;
    const now = this.clock();
    const quota = readRateLimitHeaders(headers).quota;
    const announced = retryAfterMs(headers['retry-after'], now) ?? (quota?.remaining === 0 ? quota.resetMs : undefined);
    const waitMs = announced ?? Math.min(500 * 2 ** attempt, MAX_BACKOFF_MS);
    this.closeCycle(now + waitMs);
    this.block(now + waitMs);
    return waitMs;
  }

  /** Any other answer, or none at all: the request got past the limit, and the headers may say how close it is. */
  answered(headers: Record<string, string>): void {
    if (this.cycle) this.cycle.accepted += 1;
    const now = this.clock();
    const { quota, bucket } = readRateLimitHeaders(headers);
    if (quota || bucket) this.limitSeen = true;
    // "Spend the quota, then wait for the reset", one of the client behaviours the drafts name.
    if (quota?.remaining === 0 && quota.resetMs !== undefined)
      this.block(now + Math.min(quota.resetMs, MAX_HINTED_HOLD_MS));
    if (bucket) this.watchBucket(bucket, now);
  }

  /**
   * A 503: its Retry-After (capped, and never past `leftMs`, what is left of the outage's budget) holds
   * every request. Returns the wait, or undefined when none was announced.
   */
  unavailable(headers: Record<string, string>, leftMs = MAX_UNAVAILABLE_WAIT_MS): number | undefined {
    const now = this.clock();
    const announced = retryAfterMs(headers['retry-after'], now);
    if (announced === undefined) return undefined;
    this.limitSeen = true;
    const waitMs = Math.min(announced, MAX_UNAVAILABLE_WAIT_MS, leftMs);
    this.block(now + waitMs);
    return waitMs;
  }

  private intervalMs(): number {
    const configured = this.maxRps > 0 ? 1000 / this.maxRps : 0;
    const learned = this.measuredRps > 0 ? (1000 / this.measuredRps) * (1 + HEADROOM) : 0;
    return Math.max(configured, learned);
  }

  private block(until: number): void {
    this.blockedUntil = Math.max(this.blockedUntil, until + SAFETY_MARGIN_MS);
  }

  /** The shop will take requests again at `end`: what it took since it last said so is its rate. */
  private closeCycle(end: number): void {
    if (this.cycle === undefined) return;
    // Nothing got through since the last window ended, so that window was longer than announced:
    // the cycle before it runs on to this end.
    const measured = this.cycle.accepted === 0 && this.closedCycle ? this.closedCycle : this.cycle;
    if (measured.accepted > 0 && end > measured.start)
      this.measuredRps = (measured.accepted * 1000) / (end - measured.start);
    this.closedCycle = measured;
    this.cycle = { start: end, accepted: 0 };
  }

  /** Shopify's header names the bucket's fill but not its leak rate, so the rate is read off the fills over time. */
  private watchBucket({ used, size }: BucketHint, now: number): void {
    // An empty bucket leaks nothing, so the count starts again wherever it may have been empty.
    if (this.leakCount === undefined || used <= 1) {
      this.leakCount = { at: now, used, answered: 0 };
    } else {
      this.leakCount.answered += 1;
      // Fills are whole numbers: one request of what seems to have leaked may not have.
      const leaked = this.leakCount.used + this.leakCount.answered - used - 1;
      if (leaked >= MIN_LEAK_EVIDENCE) this.leakIntervalMs = (now - this.leakCount.at) / leaked;
    }
    if (used < size) return;
    // Full: the next request waits until one has leaked. Not yet knowing how long that takes, it is
    // sent, and the 429 it may meet teaches the pace.
    const perRequest = this.measuredRps > 0 ? this.intervalMs() : this.leakIntervalMs;
    if (perRequest > 0) this.block(now + Math.min(perRequest, MAX_HINTED_HOLD_MS));
  }
}

/** Retry-After as seconds (possibly fractional, e.g. "2.0" or "0.473") or an HTTP date. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Kept on globalThis so that every copy of this module in one thread shares one throttle per target.
const shared = globalThis as { __zonesThrottles?: Map<string, Throttle> };
shared.__zonesThrottles ??= new Map();
const registry = shared.__zonesThrottles;

export function throttleFor(baseUrl: string, maxRps: number): Throttle {
  const known = registry.get(baseUrl);
  if (known) return known;
  const throttle = new Throttle(maxRps, Date.now);
  registry.set(baseUrl, throttle);
  return throttle;
}

/**
 * Forgets every target's throttle: for a process that talks to one short-lived server after another,
 * where a later server can get an earlier one's port and must not inherit the pace it taught (the
 * self-tests, whose files share workers). A certification run never calls it.
 */
export function forgetThrottles(): void {
  registry.clear();
}
