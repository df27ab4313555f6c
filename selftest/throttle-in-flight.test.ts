// How many requests the throttle lets be under way at once when tests run side by side
// (ZONES_CONCURRENCY): one at first, more after runs of answers with no sign of a limit, and one
// for good once the shop shows a limit, so a request already on its way cannot land in a window.
import { describe, expect, test } from 'vitest';
import { Throttle } from '../helpers/target/throttle.ts';

/** Asks for `n` turns at once and says how many were granted before any was released. */
async function grantedAtOnce(throttle: Throttle, n: number): Promise<number> {
  let granted = 0;
  const turns = Array.from({ length: n }, () => throttle.take().then(() => (granted += 1)));
  await new Promise((resolve) => setTimeout(resolve, 20));
  const atOnce = granted;
  for (let i = 0; i < n; i += 1) {
    throttle.answered({});
    throttle.release();
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(turns);
  return atOnce;
}

async function cleanAnswers(throttle: Throttle, n: number): Promise<void> {
  for (let i = 0; i < n; i += 1) {
    await throttle.take();
    throttle.answered({});
    throttle.release();
  }
}

describe('requests under way at once', () => {
  test('one until a run of clean answers, then one more for each run, up to the setting', async () => {
    const throttle = new Throttle(0, Date.now, 3);
    expect(throttle.inFlightLimit).toBe(1);
    expect(await grantedAtOnce(throttle, 4)).toBe(1);
    // grantedAtOnce answered 4; 4 more make the first run of 8.
    await cleanAnswers(throttle, 4);
    expect(throttle.inFlightLimit).toBe(2);
    expect(await grantedAtOnce(throttle, 4)).toBe(2);
    await cleanAnswers(throttle, 20);
    expect(throttle.inFlightLimit).toBe(3);
  });

  test('a 429 brings it back to one for good', async () => {
    const throttle = new Throttle(0, Date.now, 4);
    await cleanAnswers(throttle, 40);
    expect(throttle.inFlightLimit).toBe(4);
    throttle.tooManyRequests({ 'retry-after': '0' }, 0);
    await cleanAnswers(throttle, 40);
    expect(throttle.inFlightLimit).toBe(1);
  });

  test.for<{ label: string; headers: Record<string, string> }>([
    { label: 'rate-limit headers', headers: { 'ratelimit-remaining': '9', 'ratelimit-reset': '1' } },
    { label: "Shopify's call limit", headers: { 'x-shopify-shop-api-call-limit': '1/40' } },
  ])('$label bring it back to one', async ({ headers }) => {
    const throttle = new Throttle(0, Date.now, 4);
    await cleanAnswers(throttle, 40);
    throttle.answered(headers);
    expect(throttle.inFlightLimit).toBe(1);
  });

  test('a 503 with Retry-After, or ZONES_MAX_RPS, keeps it at one', async () => {
    const outage = new Throttle(0, Date.now, 4);
    await cleanAnswers(outage, 40);
    outage.unavailable({ 'retry-after': '0' });
    expect(outage.inFlightLimit).toBe(1);
    const paced = new Throttle(1000, Date.now, 4);
    await cleanAnswers(paced, 40);
    expect(paced.inFlightLimit).toBe(1);
  });

  test('turns are granted in the order they were asked for', async () => {
    const throttle = new Throttle(0, Date.now, 1);
    const order: number[] = [];
    const turns = [0, 1, 2].map((n) => throttle.take().then(() => order.push(n)));
    for (let i = 0; i < 3; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      throttle.answered({});
      throttle.release();
    }
    await Promise.all(turns);
    expect(order).toEqual([0, 1, 2]);
  });
});
