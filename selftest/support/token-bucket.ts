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
  /** Tokens when the bucket starts: all `burst` unless said; 0 when the preflight, another job or another team spent it. */
  startTokens?: number;
  /**
   * Retry-After as the shop words it: the exact wait in fractional seconds (the default, so a client
   * that parses it as an integer is caught here), rounded up to whole seconds as most servers send it,
   * or always this many seconds, as Shopify's "2.0".
   */
  retryAfter?: 'exact' | 'whole' | number;
}

/** A refusal's `waitMs` is the window it announces in `retryAfter`: a request inside it is a violation. */
export type Admission = { allowed: true } | { allowed: false; waitMs: number; retryAfter: string; violation: boolean };

export interface TokenBucket {
  admit(): Admission;
  /** Whole requests it would admit now, and the ms until it would admit one more than that. */
  peek(): { remaining: number; untilNextMs: number };
}

/** `clock` is Date.now but for simulations in virtual time. */
export function createTokenBucket(limit: RateLimit, clock: () => number = Date.now): TokenBucket {
  const { perSecond, burst } = limit;
  if (!(perSecond > 0) || !(burst >= 1)) {
    throw new RangeError(`rateLimit needs perSecond > 0 and burst >= 1, got ${perSecond} and ${burst}`);
  }
  let tokens = limit.startTokens ?? burst;
  let announcedUntil = 0;
  let refilledAt = clock();
  const refill = (now: number) => {
    tokens = Math.min(burst, tokens + ((now - refilledAt) * perSecond) / 1000);
    refilledAt = now;
  };
  return {
    admit() {
      const now = clock();
      if (now < announcedUntil) return announce(announcedUntil - now, limit.retryAfter, true);
      refill(now);
      // Sums of partial refills can land a hair under 1 at the very moment the announced wait ends.
      if (tokens >= 1 - 1e-9) {
        tokens -= 1;
        return { allowed: true };
      }
      // Rounded up to whole milliseconds, so a client that waits exactly as told finds a token.
      const refusal = announce(Math.ceil(((1 - tokens) * 1000) / perSecond), limit.retryAfter);
      announcedUntil = now + refusal.waitMs;
      return refusal;
    },
    peek() {
      refill(clock());
      const remaining = Math.floor(tokens + 1e-9);
      return { remaining, untilNextMs: Math.ceil(((remaining + 1 - tokens) * 1000) / perSecond) };
    },
  };
}

type Refusal = Extract<Admission, { allowed: false }>;

/** The refusal of a request that needs `neededMs` more, worded as the shop words Retry-After. */
function announce(neededMs: number, form: RateLimit['retryAfter'] = 'exact', violation = false): Refusal {
  const seconds =
    form === 'exact'
      ? (neededMs / 1000).toFixed(3)
      : form === 'whole'
        ? String(Math.ceil(neededMs / 1000))
        : form.toFixed(1);
  return { allowed: false, waitMs: Math.max(neededMs, Number(seconds) * 1000), retryAfter: seconds, violation };
}

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
