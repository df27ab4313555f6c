// Politeness towards the target. A 429 means the request was not processed, so it is waited out
// (Retry-After, fractional seconds allowed, else exponential back-off) and sent again; inside that
// window nothing at all goes to the target. ZONES_MAX_RPS paces requests before any 429 comes.
//
// One throttle per target and process. A certification sends its requests to one target from one
// worker, one at a time (see run-suites.ts), so this one throttle sees every request there is.

const SAFETY_MARGIN_MS = 25;
const MAX_BACKOFF_MS = 30_000;

export class Throttle {
  private blockedUntil = 0;
  private nextSlot = 0;
  /** 429 answers received. */
  throttled = 0;

  constructor(private readonly maxRps: number) {}

  /** Resolves when a request may be sent: outside any Retry-After window, and on pace. */
  async ready(): Promise<void> {
    for (;;) {
      const now = Date.now();
      const wait = Math.max(this.blockedUntil, this.nextSlot) - now;
      if (wait <= 0) break;
      await sleep(wait);
    }
    if (this.maxRps > 0) this.nextSlot = Date.now() + 1000 / this.maxRps;
  }

  /** A 429 arrived: block for its Retry-After, or back off exponentially when it has none. */
  tooManyRequests(retryAfter: string | undefined, attempt: number): number {
    this.throttled += 1;
    const waitMs = retryAfterMs(retryAfter) ?? Math.min(500 * 2 ** attempt, MAX_BACKOFF_MS);
    this.blockedUntil = Math.max(this.blockedUntil, Date.now() + waitMs + SAFETY_MARGIN_MS);
    return waitMs;
  }
}

/** Retry-After as seconds (possibly fractional, e.g. "2.0" or "0.473") or an HTTP date. */
export function retryAfterMs(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Kept on globalThis so that every copy of this module in one thread shares one throttle per target.
const registry = ((globalThis as { __zonesThrottles?: Map<string, Throttle> }).__zonesThrottles ??= new Map());

export function throttleFor(baseUrl: string, maxRps: number): Throttle {
  let throttle = registry.get(baseUrl);
  if (!throttle) registry.set(baseUrl, (throttle = new Throttle(maxRps)));
  return throttle;
}
