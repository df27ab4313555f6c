// The throttle learns a shop's pace from its 429s and its rate-limit headers. Proven in virtual
// time: a simulated run sends its requests one after another through the throttle to a simulated
// limiter (a token bucket, a fixed window, a leaky bucket), so a run of minutes takes milliseconds
// and comes out the same every time.
import { describe, expect, test } from 'vitest';
import { Throttle } from '../helpers/pacing/throttle.ts';
import { announceBucket, createTokenBucket, type RateLimit, type RateLimitHeaders } from './support/token-bucket.ts';

type Verdict =
  | { accepted: true; headers: Record<string, string> }
  | { accepted: false; headers: Record<string, string>; early?: boolean };

interface Limiter {
  admit(now: number): Verdict;
}

interface SimulatedRun {
  seconds: number;
  refused: number;
  /** Requests sent while an announced wait was still running. */
  early: number;
  learnedRps: number;
}

/** `requests` requests, each sent again after a 429 as the client does, `latencyMs` apart at the least. */
function simulate(
  limiterAt: (clock: () => number) => Limiter,
  requests: number,
  options: { maxRps?: number; latencyMs?: number } = {},
): SimulatedRun {
  let now = 0;
  const clock = () => now;
  const limiter = limiterAt(clock);
  const throttle = new Throttle(options.maxRps ?? 0, clock);
  const run = { refused: 0, early: 0 };
  for (let i = 0; i < requests; i += 1) {
    for (let attempt = 0; ; attempt += 1) {
      now = Math.max(now, throttle.nextSendAt());
      throttle.sending();
      const verdict = limiter.admit(now);
      now += options.latencyMs ?? 5;
      if (verdict.accepted) {
        throttle.answered(verdict.headers);
        break;
      }
      run.refused += 1;
      if (verdict.early) run.early += 1;
      throttle.tooManyRequests(verdict.headers, attempt);
    }
  }
  return { ...run, seconds: now / 1000, learnedRps: throttle.learnedRps };
}

/** The unruly proxy's token bucket, with its Retry-After and, if asked, its rate-limit headers. */
const tokenBucket =
  (limit: RateLimit, form?: RateLimitHeaders) =>
  (clock: () => number): Limiter => {
    const bucket = createTokenBucket(limit, clock);
    return {
      admit() {
        const admission = bucket.admit();
        const headers = form ? announceBucket(form, bucket, limit.burst) : {};
        if (admission.allowed) return { accepted: true, headers };
        return {
          accepted: false,
          early: admission.violation,
          headers: { ...headers, 'retry-after': admission.retryAfter },
        };
      },
    };
  };

/** `limit` requests per window of `windowSeconds`, windows counted from `offsetSeconds` before the run; Retry-After in whole seconds. */
const fixedWindow =
  (limit: number, windowSeconds: number, offsetSeconds = 0) =>
  (): Limiter => {
    let window = -1;
    let used = 0;
    return {
      admit(now): Verdict {
        const at = now / 1000 + offsetSeconds;
        const current = Math.floor(at / windowSeconds);
        if (current !== window) [window, used] = [current, 0];
        if (used < limit) {
          used += 1;
          return { accepted: true, headers: {} };
        }
        return { accepted: false, headers: { 'retry-after': String(Math.ceil((current + 1) * windowSeconds - at)) } };
      },
    };
  };

/** Shopify's leaky bucket: `size` requests fit, `leakPerSecond` leak away; the fill in its header, rounded up. */
const leakyBucket = (size: number, leakPerSecond: number) => (): Limiter => {
  let level = 0;
  let at = 0;
  return {
    admit(now): Verdict {
      level = Math.max(0, level - ((now - at) * leakPerSecond) / 1000);
      at = now;
      const header = () => ({ 'x-shopify-shop-api-call-limit': `${Math.ceil(level - 1e-9)}/${size}` });
      if (level + 1 > size + 1e-9) return { accepted: false, headers: { ...header(), 'retry-after': '2.0' } };
      level += 1;
      return { accepted: true, headers: header() };
    },
  };
};

const shopLike = { perSecond: 2, burst: 4 };

describe('behind a token bucket of 2 requests per second, burst 4, without ZONES_MAX_RPS', () => {
  const learned = simulate(tokenBucket(shopLike), 150);
  const paced = simulate(tokenBucket(shopLike), 150, { maxRps: 2 });

  test('the run meets at most 5 429s and never sends inside a Retry-After window', () => {
    expect(learned.refused).toBeGreaterThan(0);
    expect(learned.refused).toBeLessThanOrEqual(5);
    expect(learned.early).toBe(0);
  });

  test('the pace it learns is just under the refill rate', () => {
    expect(learned.learnedRps).toBeGreaterThan(1.9);
    expect(learned.learnedRps).toBeLessThan(2.1);
  });

  test('it takes no longer than a run paced with ZONES_MAX_RPS=2', () => {
    expect(paced.refused).toBe(0);
    expect(learned.seconds).toBeLessThanOrEqual(paced.seconds);
  });

  test('the burst is spent before the first 429, rather than paced from the start', () => {
    const firstFive = simulate(tokenBucket(shopLike), 4);
    expect(firstFive.seconds).toBeLessThan(0.1);
  });
});

test('a learned pace is slower still under ZONES_MAX_RPS when that is slower', () => {
  const run = simulate(tokenBucket(shopLike), 20, { maxRps: 1 });
  expect(run.refused).toBe(0);
  expect(run.seconds).toBeGreaterThanOrEqual(19);
});

test('a learned pace stays under a faster shop too (10 requests per second, burst 40)', () => {
  const run = simulate(tokenBucket({ perSecond: 10, burst: 40 }), 400);
  expect(run.refused).toBeLessThanOrEqual(5);
  expect(run.learnedRps).toBeGreaterThan(9.5);
  expect(run.learnedRps).toBeLessThan(10.5);
});

describe('behind a fixed window of 40 requests a minute', () => {
  // Full windows at 0, 60 and 120 s, and the last 30 requests in the next: the run cannot end before 180 s.
  const shortest = 180;

  test.for([
    { label: 'starting as a window opens', offset: 0 },
    { label: 'starting half way through a window', offset: 30 },
    { label: 'starting a second before a window closes', offset: 59 },
  ])('$label, one Retry-After of up to a minute does not make the run crawl', ({ offset }) => {
    const run = simulate(fixedWindow(40, 60, offset), 150);
    // Learning 1/Retry-After would pace at one request a minute: over two hours for this run.
    expect(run.seconds).toBeLessThan(shortest * 1.35);
    expect(run.refused).toBeLessThanOrEqual(4);
    expect(run.early).toBe(0);
  });
});

describe('announced in rate-limit headers', () => {
  test.for(['ietf', 'ietf-combined'] as const)('%s: a run behind 2 requests per second meets no 429 at all', (form) => {
    const run = simulate(tokenBucket(shopLike, form), 150);
    expect(run.refused).toBe(0);
    // Whole-second resets cost some time, but never more than pacing at the refill rate from the start.
    expect(run.seconds).toBeLessThanOrEqual(simulate(tokenBucket(shopLike), 150, { maxRps: 2 }).seconds);
  });

  test('shopify, a bucket of 40 leaking 2 a second over a real network: the leak is read off the header, no 429', () => {
    const run = simulate(leakyBucket(40, 2), 150, { latencyMs: 120 });
    expect(run.refused).toBe(0);
    expect(run.learnedRps).toBe(0);
    // 150 requests through a 40 bucket leaking 2 a second: at least 55 s.
    expect(run.seconds).toBeLessThan(55 * 1.2);
  });

  test('shopify, a small bucket filled in milliseconds: the header cannot tell the leak yet, so a 429 or two teach it', () => {
    const run = simulate(tokenBucket(shopLike, 'shopify'), 150);
    expect(run.refused).toBeLessThanOrEqual(3);
    expect(run.early).toBe(0);
  });
});

describe('one throttle, read directly', () => {
  test('a 503 Retry-After holds every request, but never longer than 30 s', () => {
    let now = 1_000;
    const throttle = new Throttle(0, () => now);
    expect(throttle.unavailable({ 'retry-after': '2' })).toBe(2000);
    expect(throttle.nextSendAt()).toBeGreaterThanOrEqual(now + 2000);
    now += 5000;
    expect(throttle.unavailable({ 'retry-after': '3600' })).toBe(30_000);
    expect(throttle.nextSendAt()).toBeLessThanOrEqual(now + 30_000 + 100);
    expect(throttle.unavailable({})).toBeUndefined();
  });

  test('a 429 without Retry-After waits for an exhausted quota to reset, when the headers say when', () => {
    const throttle = new Throttle(0, () => 0);
    expect(throttle.tooManyRequests({ 'ratelimit-remaining': '0', 'ratelimit-reset': '7' }, 0)).toBe(7000);
    expect(
      throttle.tooManyRequests({ 'retry-after': '1', 'ratelimit-remaining': '0', 'ratelimit-reset': '7' }, 0),
    ).toBe(1000);
  });

  test('a quota that is not used up holds nothing back; one used up holds until its reset, at most a minute', () => {
    let now = 0;
    const throttle = new Throttle(0, () => now);
    throttle.sending();
    throttle.answered({ ratelimit: 'limit=10, remaining=3, reset=9' });
    expect(throttle.nextSendAt()).toBeLessThanOrEqual(now);
    throttle.answered({ ratelimit: 'limit=10, remaining=0, reset=9' });
    expect(throttle.nextSendAt()).toBeGreaterThanOrEqual(9000);
    now = 20_000;
    throttle.answered({ 'ratelimit-remaining': '0', 'ratelimit-reset': '86400' });
    expect(throttle.nextSendAt() - now).toBeLessThanOrEqual(60_000 + 100);
  });

  test('429s back to back with nothing let through between them stretch the cycle before them', () => {
    let now = 0;
    const throttle = new Throttle(0, () => now);
    // The first 429 ends a blind cycle; the true one begins at its window's end, 1 s.
    throttle.sending();
    throttle.tooManyRequests({ 'retry-after': '1' }, 0);
    now = throttle.nextSendAt();
    for (let i = 0; i < 4; i += 1) {
      throttle.sending();
      throttle.answered({});
    }
    throttle.sending();
    throttle.tooManyRequests({ 'retry-after': String((2000 - now) / 1000) }, 0);
    expect(throttle.learnedRps).toBeCloseTo(4, 5);
    now = throttle.nextSendAt();
    throttle.sending();
    // The window was longer than announced: the same four requests took until 3 s.
    throttle.tooManyRequests({ 'retry-after': String((4000 - now) / 1000) }, 1);
    expect(throttle.learnedRps).toBeCloseTo(4 / 3, 2);
  });

  test('the first cycle teaches nothing: the bucket it began with was full, spent or somewhere between', () => {
    let now = 0;
    const throttle = new Throttle(0, () => now);
    // One request through a spent bucket, then a whole-second Retry-After: not one request a second.
    throttle.sending();
    throttle.answered({});
    now = 5;
    throttle.sending();
    throttle.tooManyRequests({ 'retry-after': '1' }, 0);
    expect(throttle.learnedRps).toBe(0);
    // The next requests go as soon as the window ends, and the next 429 measures: 2 over 1 s.
    now = throttle.nextSendAt();
    expect(throttle.nextSendAt()).toBe(1030);
    for (let i = 0; i < 2; i += 1) {
      throttle.sending();
      throttle.answered({});
      expect(throttle.nextSendAt()).toBeLessThanOrEqual(now);
    }
    throttle.sending();
    throttle.tooManyRequests({ 'retry-after': String((2005 - now) / 1000) }, 0);
    expect(throttle.learnedRps).toBeCloseTo(2, 5);
  });

  test('with no limit shown, nothing is ever held back', () => {
    const run = simulate(() => ({ admit: () => ({ accepted: true, headers: {} }) }), 500, { latencyMs: 7 });
    expect(run.seconds).toBeCloseTo((500 * 7) / 1000, 9);
    expect(run.refused).toBe(0);
  });
});

describe('handed from the preflight to the worker', () => {
  test("a window the preflight met still holds the worker's first request", () => {
    const now = 1_000;
    const preflight = new Throttle(0, () => now);
    preflight.sending();
    preflight.tooManyRequests({ 'retry-after': '2' }, 0);
    const worker = new Throttle(0, () => now, preflight.state);
    expect(worker.nextSendAt()).toBeGreaterThanOrEqual(3_000);
    expect(worker.inFlightLimit).toBe(1);
  });

  test("the pace and the cycle under way go on in the worker, and the worker's learning stays its own", () => {
    let now = 0;
    const preflight = new Throttle(0, () => now);
    preflight.sending();
    preflight.tooManyRequests({ 'retry-after': '1' }, 0);
    now = preflight.nextSendAt();
    preflight.sending();
    preflight.answered({});
    const handed = preflight.state;
    const worker = new Throttle(0, () => now, handed);
    // The preflight's one request counts in the worker's first true cycle: 3 over 1.5 s.
    for (let i = 0; i < 2; i += 1) {
      worker.sending();
      worker.answered({});
    }
    worker.sending();
    worker.tooManyRequests({ 'retry-after': String((2500 - now) / 1000) }, 0);
    expect(worker.learnedRps).toBeCloseTo(2, 5);
    expect(preflight.learnedRps).toBe(0);
    expect(handed.measured).toBeUndefined();
  });
});

describe('the pace climbs from what it measured, and a 429 brings it down again', () => {
  // A run of the suite's size, each request answered in `latencyMs`: the wall time bound is the
  // issue's, 1.10 times the requests past the first 4 at the bucket's rate.
  const REQUESTS = 352;
  const bound = (perSecond: number) => (1.1 * (REQUESTS - 4)) / perSecond;

  test.for([
    { label: 'spent, one request left in it', startTokens: 1, latencyMs: 5 },
    { label: 'spent to nothing', startTokens: 0, latencyMs: 5 },
    { label: 'spent, over a 120 ms network', startTokens: 1.2, latencyMs: 120 },
    { label: 'full', startTokens: 4, latencyMs: 5 },
  ])(
    'a token bucket of 4 at 2 a second with whole-second Retry-After, $label: at the refill rate',
    ({ startTokens, latencyMs }) => {
      const run = simulate(tokenBucket({ perSecond: 2, burst: 4, startTokens, retryAfter: 'whole' }), REQUESTS, {
        latencyMs,
      });
      expect(run.seconds).toBeLessThanOrEqual(bound(2));
      expect(run.refused).toBeGreaterThan(0);
      expect(run.refused).toBeLessThanOrEqual(5);
      expect(run.early).toBe(0);
    },
  );

  test.for([
    { label: 'spent', startTokens: 0, latencyMs: 5 },
    { label: 'spent, over a 120 ms network', startTokens: 0, latencyMs: 120 },
    { label: 'full', startTokens: 40, latencyMs: 5 },
  ])(
    "Shopify's bucket of 40 leaking 2 a second with Retry-After: 2.0, $label: at the leak rate",
    ({ startTokens, latencyMs }) => {
      const run = simulate(tokenBucket({ perSecond: 2, burst: 40, startTokens, retryAfter: 2 }), REQUESTS, {
        latencyMs,
      });
      expect(run.seconds).toBeLessThanOrEqual(bound(2));
      expect(run.refused).toBeLessThanOrEqual(5);
      expect(run.early).toBe(0);
    },
  );

  test('a rate measured while another client shared the bucket is a floor: once it has gone, the pace climbs back', () => {
    const limit = { perSecond: 2, burst: 4, retryAfter: 'whole' as const };
    // The other client takes a request a second, half the refill, for the first 20 s.
    const shared = (clock: () => number): Limiter => {
      let at = 0;
      const bucket = createTokenBucket(limit, () => at);
      let othersNext = 0;
      return {
        admit(now): Verdict {
          for (; othersNext <= Math.min(now, 20_000); othersNext += 1000) {
            at = othersNext;
            if (bucket.peek().remaining >= 1) bucket.admit();
          }
          at = clock();
          const admission = bucket.admit();
          if (admission.allowed) return { accepted: true, headers: {} };
          return { accepted: false, early: admission.violation, headers: { 'retry-after': admission.retryAfter } };
        },
      };
    };
    const run = simulate(shared, 600);
    const measuredShared = simulate(shared, 40);
    expect(measuredShared.learnedRps).toBeLessThan(1.2);
    // Paced at the shared rate, 600 requests would take over 500 s; at the shop's, about 300 s.
    expect(run.learnedRps).toBeGreaterThan(1.3);
    expect(run.seconds).toBeLessThan(450);
    expect(run.early).toBe(0);
  });
});
