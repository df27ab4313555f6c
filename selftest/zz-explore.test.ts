import { test } from 'vitest';
import { Throttle } from '../helpers/pacing/throttle.ts';
import { createTokenBucket, type RateLimit } from '../selftest/support/token-bucket.ts';

function sim(limit: RateLimit, requests: number, latencyMs = 5, pauseEvery = 0) {
  let now = 0;
  const clock = () => now;
  const bucket = createTokenBucket(limit, clock);
  const t = new Throttle(0, clock);
  let refused = 0,
    early = 0;
  for (let i = 0; i < requests; i++) {
    if (pauseEvery && i % pauseEvery === 0) now += 3000;
    for (let a = 0; ; a++) {
      now = Math.max(now, t.nextSendAt());
      t.sending();
      const ad = bucket.admit();
      now += latencyMs;
      if (ad.allowed) {
        t.answered({});
        break;
      }
      refused++;
      if (ad.violation) early++;
      t.tooManyRequests({ 'retry-after': ad.retryAfter }, a);
    }
  }
  return {
    s: (now / 1000).toFixed(1),
    ratio: (now / 1000 / ((requests - 4) / limit.perSecond)).toFixed(3),
    refused,
    early,
    rps: t.learnedRps.toFixed(3),
  };
}
test('explore', () => {
  for (const [name, l] of Object.entries({
    spent4whole: { perSecond: 2, burst: 4, startTokens: 0, retryAfter: 'whole' },
    full4whole: { perSecond: 2, burst: 4, retryAfter: 'whole' },
    spent4exact: { perSecond: 2, burst: 4, startTokens: 0 },
    full4exact: { perSecond: 2, burst: 4 },
    spent40: { perSecond: 2, burst: 40, startTokens: 0, retryAfter: 2 },
    full40: { perSecond: 2, burst: 40, retryAfter: 2 },
    fast: { perSecond: 10, burst: 40 },
  } as Record<string, RateLimit>)) {
    for (const n of [150, 352, 1500]) console.log(name, n, JSON.stringify(sim(l, n)), JSON.stringify(sim(l, n, 120)));
  }
});
