// A token bucket that, like a real shop, remembers the Retry-After it announced, so a client that
// ignores the announcement can be caught rather than merely slowed down.

/**
 * How a shop announces its limit in every answer: Shopify's `X-Shopify-Shop-Api-Call-Limit:
 * used/size`, the IETF drafts' `RateLimit-Limit`/`-Remaining`/`-Reset`, or their combined
 * `RateLimit: limit=, remaining=, reset=` (draft 07).
 */
export type RateLimitHeaders = 'shopify' | 'ietf' | 'ietf-combined';

export interface RateLimit {
  perSecond: number;
  burst: number;
}

export type Admission = { allowed: true } | { allowed: false; waitMs: number; violation: boolean };

export interface TokenBucket {
  admit(): Admission;
  /** Whole requests it would admit now, and the ms until it would admit one more than that. */
  peek(): { remaining: number; untilNextMs: number };
}

/** `clock` is Date.now but for simulations in virtual time. */
export function createTokenBucket({ perSecond, burst }: RateLimit, clock: () => number = Date.now): TokenBucket {
  if (!(perSecond > 0) || !(burst >= 1)) {
    throw new RangeError(`rateLimit needs perSecond > 0 and burst >= 1, got ${perSecond} and ${burst}`);
  }
  let tokens = burst;
  let refilledAt = clock();
  let blockedUntil = 0;
  const refill = (now: number) => {
    tokens = Math.min(burst, tokens + ((now - refilledAt) * perSecond) / 1000);
    refilledAt = now;
  };
  return {
    admit() {
      const now = clock();
      if (now < blockedUntil) return { allowed: false, waitMs: blockedUntil - now, violation: true };
      refill(now);
      // Sums of partial refills can land a hair under 1 at the very moment the announced wait ends.
      if (tokens >= 1 - 1e-9) {
        tokens -= 1;
        return { allowed: true };
      }
      // Rounded up to whole milliseconds, so a client that waits exactly as told finds a token.
      const waitMs = Math.ceil(((1 - tokens) * 1000) / perSecond);
      blockedUntil = now + waitMs;
      return { allowed: false, waitMs, violation: false };
    },
    peek() {
      refill(clock());
      const remaining = Math.floor(tokens + 1e-9);
      return { remaining, untilNextMs: Math.ceil(((remaining + 1 - tokens) * 1000) / perSecond) };
    },
  };
}

// Fractional on purpose: real shops send "2.0", and a client that parses Retry-After as an integer
// must be caught here rather than in staging.
export const retryAfterSeconds = (waitMs: number): string => (waitMs / 1000).toFixed(3);

/** The bucket as a shop would show it right after admitting (or refusing) a request. */
export function announceBucket(form: RateLimitHeaders, bucket: TokenBucket, burst: number): Record<string, string> {
  const { remaining, untilNextMs } = bucket.peek();
  // The drafts allow whole seconds only; rounded up, so a client that waits for it finds the quota back.
  const reset = Math.ceil(untilNextMs / 1000);
  if (form === 'shopify') return { 'x-shopify-shop-api-call-limit': `${burst - remaining}/${burst}` };
  if (form === 'ietf-combined') return { ratelimit: `limit=${burst}, remaining=${remaining}, reset=${reset}` };
  return {
    'ratelimit-limit': String(burst),
    'ratelimit-remaining': String(remaining),
    'ratelimit-reset': String(reset),
  };
}
