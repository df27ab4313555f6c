// Politeness towards the target. A 429 means the request was not processed, so it is waited out
// (Retry-After, fractional seconds allowed, else exponential back-off) and sent again; inside that
// window nothing at all goes to the target. ZONES_MAX_RPS paces requests before any 429 comes.
// Without it the throttle learns the shop's pace from its 429s (docs/design.md, "How the throttle
// learns"), and rate-limit headers hold requests while a quota or a Shopify bucket is used up.
//
// One throttle per target and process: a certification sends its requests to one target from one
// worker, one test at a time (helpers/runner/run-suites.ts), so it sees every request there is.
// Requests a test sends together on purpose (ROBUST-07's concurrent updates) go together only until
// the shop shows a limit: after that, a request already on its way could land inside a window.
import { perTarget } from './outage.ts';
import { type BucketHint, readRateLimitHeaders } from './rate-limit-headers.ts';

const SAFETY_MARGIN_MS = 25;
const MAX_BACKOFF_MS = 30_000;
/**
 * How far under the measured rate requests are paced at first: a cycle's ends are known to within the
 * few milliseconds an answer takes, about 1% of the half-second cycle of a limit of 2 a second.
 */
const HEADROOM = 0.01;
/**
 * How the pace climbs while no 429 comes: by one request per cycle every CLIMB_CYCLES cycles' time
 * after a rounded Retry-After, which measures to within a request (2 requests over "1" may be a third
 * off), and by (quiet time ÷ CLIMB_DOUBLES_MS)³ of the rate: slow for a minute, double in four, so a
 * rate measured while somebody else shared the limit is a floor, not a ceiling.
 */
const CLIMB_CYCLES = 30;
const CLIMB_DOUBLES_MS = 240_000;
/** A 503's outage can last hours: the shop is asked again now and then, within ZONES_OUTAGE_BUDGET_MS (outage.ts). */
const MAX_UNAVAILABLE_WAIT_MS = 30_000;
/** A header is a hint, not a refusal: past this the shop is asked again, and its 429 would decide. */
const MAX_HINTED_HOLD_MS = 60_000;
/** Whole requests a Shopify bucket must be seen to leak before its leak rate is trusted. */
const MIN_LEAK_EVIDENCE = 3;

interface Cycle {
  start: number;
  accepted: number;
  /** Began at the first request rather than at a window's end: what the bucket held then is unknown. */
  blind: boolean;
}

/** Everything the throttle has learned of a shop: the preflight's is where the worker's begins, neither blind nor inside a window. */
export interface PaceState {
  blockedUntil: number;
  nextSlot: number;
  /** The last true cycle: requests per second, its end and length, and whether a rounded Retry-After closed it. */
  measured?: { rps: number; at: number; overMs: number; roughly: boolean };
  cycle?: Cycle;
  closedCycle?: Cycle;
  /** Where counting a Shopify bucket's leak began: its fill then, and the requests answered since. */
  leakCount?: { at: number; used: number; answered: number };
  leakIntervalMs: number;
  /** The shop has shown a limit (or ZONES_MAX_RPS set one): from then on, one request at a time. */
  limitSeen: boolean;
}

export class Throttle {
  private readonly s: PaceState;
  /** 429 answers received, by this process. */
  throttled = 0;
  private inFlight = 0;
  private readonly waitingForSlot: (() => void)[] = [];
  private lastTurn: Promise<void> = Promise.resolve();

  constructor(
    private readonly maxRps: number,
    private readonly clock: () => number = Date.now,
    from?: PaceState,
  ) {
    this.s = from ? structuredClone(from) : { blockedUntil: 0, nextSlot: 0, leakIntervalMs: 0, limitSeen: false };
    this.s.limitSeen ||= maxRps > 0;
  }

  /** What it has learned, for another process's throttle of the same shop. */
  get state(): PaceState {
    return structuredClone(this.s);
  }

  get inFlightLimit(): number {
    return this.s.limitSeen ? 1 : Number.POSITIVE_INFINITY;
  }

  /** Callers pass one at a time, in the order they asked; each `release`s once its answer (or none) is told to the throttle. */
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

  /** The rate the last true cycle measured, in requests per second; 0 while none did. */
  get learnedRps(): number {
    return this.s.measured?.rps ?? 0;
  }

  async ready(): Promise<void> {
    while (this.nextSendAt() > this.clock()) await sleep(this.nextSendAt() - this.clock());
    this.sending();
  }

  nextSendAt(): number {
    return Math.max(this.s.blockedUntil, this.s.nextSlot);
  }

  sending(): void {
    const now = this.clock();
    this.s.cycle ??= { start: now, accepted: 0, blind: true };
    const interval = this.intervalMs(now);
    if (interval > 0) this.s.nextSlot = now + interval;
  }

  /** A 429 arrived: block for its Retry-After (else an exhausted quota's reset, else back-off), and learn the pace. */
  tooManyRequests(headers: Record<string, string>, attempt: number): number {
    this.throttled += 1;
    this.s.limitSeen = true;
    const now = this.clock();
    const quota = readRateLimitHeaders(headers).quota;
    const announced = retryAfterMs(headers['retry-after'], now) ?? (quota?.remaining === 0 ? quota.resetMs : undefined);
    const waitMs = announced ?? Math.min(500 * 2 ** attempt, MAX_BACKOFF_MS);
    // A wait to the millisecond ("0.473") ends as the bucket holds a request again; "1", "2.0", a date
    // or a guess may end later, and the refill in between lands in the next cycle.
    this.closeCycle(now + waitMs, !/\.\d*[1-9]/.test(headers['retry-after'] ?? ''));
    this.block(now + waitMs);
    return waitMs;
  }

  /** Any other answer, or none at all: the request got past the limit, and the headers may say how close it is. */
  answered(headers: Record<string, string>): void {
    if (this.s.cycle) this.s.cycle.accepted += 1;
    const now = this.clock();
    const { quota, bucket } = readRateLimitHeaders(headers);
    if (quota || bucket) this.s.limitSeen = true;
    // "Spend the quota, then wait for the reset", one of the client behaviours the drafts name.
    if (quota?.remaining === 0 && quota.resetMs !== undefined)
      this.block(now + Math.min(quota.resetMs, MAX_HINTED_HOLD_MS));
    if (bucket) this.watchBucket(bucket, now);
  }

  /** A 503's Retry-After holds every request, capped, and never past `leftMs`, what is left of the outage's budget. */
  unavailable(headers: Record<string, string>, leftMs = MAX_UNAVAILABLE_WAIT_MS): number | undefined {
    const now = this.clock();
    const announced = retryAfterMs(headers['retry-after'], now);
    if (announced === undefined) return undefined;
    this.s.limitSeen = true;
    const waitMs = Math.min(announced, MAX_UNAVAILABLE_WAIT_MS, leftMs);
    this.block(now + waitMs);
    return waitMs;
  }

  private intervalMs(now: number): number {
    const configured = this.maxRps > 0 ? 1000 / this.maxRps : 0;
    const { rps, at, overMs, roughly } = this.s.measured ?? { rps: 0, at: now, overMs: 1, roughly: false };
    const quiet = Math.max(0, now - at);
    const oneMore = roughly ? (1000 * quiet) / (CLIMB_CYCLES * overMs * overMs) : 0;
    const learned = rps > 0 ? 1000 / (rps * (1 - HEADROOM + (quiet / CLIMB_DOUBLES_MS) ** 3) + oneMore) : 0;
    return Math.max(configured, learned);
  }

  private block(until: number): void {
    this.s.blockedUntil = Math.max(this.s.blockedUntil, until + SAFETY_MARGIN_MS);
  }

  /** The shop will take requests again at `end`: what it took since it last said so is its rate. */
  private closeCycle(end: number, rounded: boolean): void {
    const { cycle, closedCycle } = this.s;
    if (cycle === undefined) return;
    // Nothing got through since the last window ended, so that window was longer than announced:
    // the cycle before it runs on to this end.
    const measured = cycle.accepted === 0 && closedCycle ? closedCycle : cycle;
    const overMs = end - measured.start;
    if (!measured.blind && measured.accepted > 0 && overMs > 0)
      this.s.measured = { rps: (measured.accepted * 1000) / overMs, at: end, overMs, roughly: rounded };
    this.s.closedCycle = measured;
    this.s.cycle = { start: end, accepted: 0, blind: false };
  }

  /** Shopify's header names the bucket's fill but not its leak rate, so the rate is read off the fills over time. */
  private watchBucket({ used, size }: BucketHint, now: number): void {
    // An empty bucket leaks nothing, so the count starts again wherever it may have been empty.
    const count = this.s.leakCount;
    if (count === undefined || used <= 1) {
      this.s.leakCount = { at: now, used, answered: 0 };
    } else {
      count.answered += 1;
      // Fills are whole numbers: one request of what seems to have leaked may not have.
      const leaked = count.used + count.answered - used - 1;
      if (leaked >= MIN_LEAK_EVIDENCE) this.s.leakIntervalMs = (now - count.at) / leaked;
    }
    if (used < size) return;
    // Full: the next request waits until one has leaked. Not yet knowing how long that takes, it is
    // sent, and the 429 it may meet teaches the pace.
    const perRequest = this.s.measured ? this.intervalMs(now) : this.s.leakIntervalMs;
    if (perRequest > 0) this.block(now + Math.min(perRequest, MAX_HINTED_HOLD_MS));
  }
}

/** Retry-After as seconds (possibly fractional, e.g. "2.0" or "0.473") or an HTTP date. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** This process's throttle for the target; the first call may give what another process learned of it. */
export function throttleFor(baseUrl: string, maxRps: number, learned?: PaceState): Throttle {
  return perTarget('throttle', baseUrl, () => new Throttle(maxRps, Date.now, learned));
}
