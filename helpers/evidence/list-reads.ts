// Which recorded exchanges are one read of the shop, told one way for drift, which lines two runs up by
// them, and the model-based budget, so that a shop holding more zones spends no more of it than its mock.
import type { TargetConfig } from '../config.ts';
import { isSuccessStatus } from './exchange.ts';
import type { ExchangeDetail } from './exchange-detail.ts';

/** Answers that are the way to the shop, not the shop: a pace to keep, or a gateway with nothing behind it. */
const NOT_THE_SHOPS = new Set([429, 502, 503, 504]);

export type PagingParams = Pick<TargetConfig, 'pageParam' | 'cursorParam'>;

export function isTheShopsAnswer(exchange: Pick<ExchangeDetail, 'status'>): boolean {
  return exchange.status === undefined || !NOT_THE_SHOPS.has(exchange.status);
}

export function isPagingParam(name: string, paging: PagingParams): boolean {
  return name === paging.pageParam || name === paging.cursorParam;
}

/** The query without the paging parameters, in a fixed order: what stays the same from page to page. */
function queryBesidesPaging(url: URL, paging: PagingParams): string {
  const kept = [...url.searchParams.entries()].filter(([name]) => !isPagingParam(name, paging));
  return new URLSearchParams(kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))).toString();
}

/**
 * A GET that carries on the list read just before it: it asks for the page that answer named rel="next",
 * or the same path and query but for the paging parameters, one of which it carries. A filtered read, or
 * one after an answer whose Link named only its first or last page, is a read of its own.
 */
export function continuesListRead(
  previous: ExchangeDetail | undefined,
  next: ExchangeDetail,
  paging: PagingParams,
): boolean {
  // Only a GET answered 2xx carries a list read on.
  if (previous?.method !== 'GET' || next.method !== 'GET' || !isSuccessStatus(previous.status)) return false;
  const at = new URL(next.url);
  if (previous.nextPage !== undefined && new URL(previous.nextPage).toString() === at.toString()) return true;
  const before = new URL(previous.url);
  if (at.origin !== before.origin || at.pathname !== before.pathname) return false;
  if (![...at.searchParams.keys()].some((name) => isPagingParam(name, paging))) return false;
  return queryBesidesPaging(at, paging) === queryBesidesPaging(before, paging);
}

/** Each request once, but the pages of one list read, or a list read again at once (a write to show), are one, and a 429 or gateway answer none. */
export function readsOfTheShop(exchanges: readonly ExchangeDetail[], paging: PagingParams): number {
  let reads = 0;
  let previous: ExchangeDetail | undefined;
  let listStart: ExchangeDetail | undefined;
  for (const exchange of exchanges) {
    if (!isTheShopsAnswer(exchange)) continue;
    const continues = continuesListRead(previous, exchange, paging);
    const readAgain = !continues && exchange.method === 'GET' && listStart?.url === exchange.url;
    previous = exchange;
    if (continues) continue;
    listStart = exchange.method === 'GET' ? exchange : undefined;
    if (!readAgain) reads += 1;
  }
  return reads;
}
