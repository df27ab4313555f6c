// A token bucket that, like a real shop, remembers the Retry-After it announced, so a client that
// ignores the announcement can be caught rather than merely slowed down.

export interface RateLimit {
  perSecond: number;
  burst: number;
}

export type Admission = { allowed: true } | { allowed: false; waitMs: number; violation: boolean };

export interface TokenBucket {
  admit(): Admission;
}

export function createTokenBucket({ perSecond, burst }: RateLimit): TokenBucket {
  if (!(perSecond > 0) || !(burst >= 1)) {
    throw new RangeError(`rateLimit needs perSecond > 0 and burst >= 1, got ${perSecond} and ${burst}`);
  }
  let tokens = burst;
  let refilledAt = Date.now();
  let blockedUntil = 0;
  return {
    admit() {
      const now = Date.now();
      if (now < blockedUntil) return { allowed: false, waitMs: blockedUntil - now, violation: true };
      tokens = Math.min(burst, tokens + ((now - refilledAt) * perSecond) / 1000);
      refilledAt = now;
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
  };
}

// Fractional on purpose: real shops send "2.0", and a client that parses Retry-After as an integer
// must be caught here rather than in staging.
export const retryAfterSeconds = (waitMs: number): string => (waitMs / 1000).toFixed(3);
