// Rate-limit headers in every form the throttle reads, and the malformed ones it must ignore.
import { expect, test } from 'vitest';
import { type RateLimitHints, readRateLimitHeaders } from '../helpers/pacing/rate-limit-headers.ts';

test.for<{ label: string; headers: Record<string, string>; hints: RateLimitHints }>([
  {
    label: "Shopify's bucket fill",
    headers: { 'x-shopify-shop-api-call-limit': '32/40' },
    hints: { bucket: { used: 32, size: 40 } },
  },
  {
    label: "Shopify's bucket fill with spaces",
    headers: { 'x-shopify-shop-api-call-limit': ' 40 / 40 ' },
    hints: { bucket: { used: 40, size: 40 } },
  },
  { label: 'a bucket of size 0', headers: { 'x-shopify-shop-api-call-limit': '0/0' }, hints: {} },
  { label: 'a bucket fill that is not one', headers: { 'x-shopify-shop-api-call-limit': 'full' }, hints: {} },
  {
    label: 'separate fields (drafts 00-06)',
    headers: { 'ratelimit-limit': '100', 'ratelimit-remaining': '0', 'ratelimit-reset': '7' },
    hints: { quota: { remaining: 0, resetMs: 7000 } },
  },
  {
    label: 'a limit with a policy, remaining and reset',
    headers: { 'ratelimit-limit': '10, 10;w=1', 'ratelimit-remaining': '3', 'ratelimit-reset': '1' },
    hints: { quota: { remaining: 3, resetMs: 1000 } },
  },
  { label: 'remaining without reset', headers: { 'ratelimit-remaining': '0' }, hints: { quota: { remaining: 0 } } },
  { label: 'reset without remaining', headers: { 'ratelimit-reset': '7' }, hints: {} },
  { label: 'a negative remaining', headers: { 'ratelimit-remaining': '-1', 'ratelimit-reset': '7' }, hints: {} },
  {
    label: 'a fractional reset (whole seconds only)',
    headers: { 'ratelimit-remaining': '0', 'ratelimit-reset': '0.5' },
    hints: { quota: { remaining: 0 } },
  },
  {
    label: 'the dictionary (draft 07)',
    headers: { ratelimit: 'limit=100, remaining=50, reset=5' },
    hints: { quota: { remaining: 50, resetMs: 5000 } },
  },
  {
    label: 'the dictionary, used up',
    headers: { ratelimit: 'limit=10,remaining=0,reset=10' },
    hints: { quota: { remaining: 0, resetMs: 10_000 } },
  },
  {
    label: 'a policy item (drafts 08 on)',
    headers: { ratelimit: '"default";r=50;t=30' },
    hints: { quota: { remaining: 50, resetMs: 30_000 } },
  },
  {
    label: 'several policies: the one used up',
    headers: { ratelimit: '"burst";r=5;t=1, "daily";r=0;t=3600' },
    hints: { quota: { remaining: 0, resetMs: 3_600_000 } },
  },
  {
    label: 'several used up: the latest reset',
    headers: { ratelimit: '"a";r=0;t=1, "b";r=0;t=9' },
    hints: { quota: { remaining: 0, resetMs: 9000 } },
  },
  {
    label: 'a policy name holding a comma',
    headers: { ratelimit: '"per user, per app";r=0;t=2' },
    hints: { quota: { remaining: 0, resetMs: 2000 } },
  },
  {
    label: 'a malformed dictionary, with the separate fields beside it',
    headers: { ratelimit: 'remaining=lots', 'ratelimit-remaining': '2' },
    hints: { quota: { remaining: 2 } },
  },
  {
    label: 'both Shopify and IETF',
    headers: { 'x-shopify-shop-api-call-limit': '1/40', 'ratelimit-remaining': '39' },
    hints: { bucket: { used: 1, size: 40 }, quota: { remaining: 39 } },
  },
  { label: 'no rate-limit header', headers: { 'content-type': 'application/json' }, hints: {} },
])('$label', ({ headers, hints }) => {
  expect(readRateLimitHeaders(headers)).toEqual(hints);
});
