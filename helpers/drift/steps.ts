// A test's exchanges as the steps drift compares: the requests the suite chose to send, one each,
// with the opaque parts named by their order in the test. What the two runs cannot share (ids, the
// run's names, a random status) would otherwise make every step differ; what is the way to the shop
// rather than the shop (429s, a gateway's 502 to 504, the pages of one list, the re-reads of a list
// that lags) would make the two runs' steps fall out of line.
import type { RecordedExchange } from '../evidence/exchange-detail.ts';

export type Operation = 'list' | 'create' | 'update' | 'delete';

export interface Step {
  /** From 1, in the test, after the steps above were merged. */
  index: number;
  operation: Operation;
  /** What was asked, the same words on both targets while they do the same: `PUT zones/<id1>.json`. */
  request: string;
  /** The exchange compared: a list's first page (its others are counted in `pages`). */
  exchange: RecordedExchange;
  pages: number;
}

/** Where the drift comparer needs the settings: how to tell a list's next page from a new list read. */
export interface PagingSettings {
  pageParam: string;
  cursorParam: string;
  statusParam: string;
}

const OPERATION: Record<string, Operation> = { GET: 'list', POST: 'create', PUT: 'update', DELETE: 'delete' };

/** zc-<yyyymmdd>t<hhmmss>-<run tag>-<process tag>-<n>: the suite's names (helpers/ownership/run-names.ts). */
const RUN_NAME = /zc-\d{8}t\d{6}-[0-9a-f]{4}-[0-9a-f]{4}-(\d+)/g;
/** The status ROBUST-05 and the filter hints ask for, random each time. */
const NO_SUCH_STATUS = /zc-no-such-status-[0-9a-f]{8}/g;
/** Answers that are the way to the shop, not the shop: a pace to keep, or a gateway with nothing behind it. */
const NOT_THE_SHOPS = new Set([429, 502, 503, 504]);

export function operationOf(method: string): Operation {
  return OPERATION[method] ?? 'list';
}

/** `zones.json` or `zones/<id>.json`, with its query: the part after /admin/api/<version>/. */
function pathOf(url: string): { path: string; query: URLSearchParams } {
  const parsed = new URL(url);
  const path = parsed.pathname.replace(/^.*?\/admin\/api\/[^/]+\//, '');
  return { path, query: parsed.searchParams };
}

function isPaging(name: string, settings: PagingSettings): boolean {
  return name === settings.pageParam || name === settings.cursorParam;
}

/**
 * A GET that carries on the list read just before it: it follows a successful GET of the collection
 * whose answer named a next page (a Link header), or it carries the page or cursor parameter.
 */
function continuesList(previous: RecordedExchange | undefined, next: RecordedExchange, settings: PagingSettings) {
  if (previous === undefined || previous.method !== 'GET' || next.method !== 'GET') return false;
  if (previous.status === undefined || previous.status < 200 || previous.status > 299) return false;
  const { path, query } = pathOf(next.url);
  if (path !== pathOf(previous.url).path) return false;
  return previous.pagingHeaders.includes('link') || [...query.keys()].some((name) => isPaging(name, settings));
}

/** The order of the test's names: each becomes <name+k>, k counted from the test's first, so runs that made more zones before still agree. */
export function nameBase(exchanges: readonly RecordedExchange[]): number {
  let base = Number.POSITIVE_INFINITY;
  for (const exchange of exchanges) {
    for (const text of [exchange.url, exchange.request ?? '', exchange.answer ?? '']) {
      for (const match of text.matchAll(RUN_NAME)) base = Math.min(base, Number(match[1]));
    }
  }
  return Number.isFinite(base) ? base : 0;
}

/** Text with the run's names and random statuses in the words both runs share. */
export function withoutRunNames(text: string, base: number): string {
  return text
    .replace(RUN_NAME, (_, n: string) => `<name+${Number(n) - base}>`)
    .replace(NO_SUCH_STATUS, 'zc-no-such-status-<random>');
}

/** Names each zone id by the order it first shows in a request path: <id1>, <id2>... */
class IdNames {
  private readonly names = new Map<string, string>();

  nameOf(id: string): string {
    let name = this.names.get(id);
    if (name === undefined) {
      name = `<id${this.names.size + 1}>`;
      this.names.set(id, name);
    }
    return name;
  }
}

function requestWords(exchange: RecordedExchange, ids: IdNames, base: number, settings: PagingSettings): string {
  const { path, query } = pathOf(exchange.url);
  const one = /^zones\/(.+?)(\.json)?$/.exec(path);
  const shownPath = one ? `zones/${ids.nameOf(decodeURIComponent(one[1]!))}${one[2] ?? ''}` : path;
  const kept = [...query.entries()].filter(([name]) => !isPaging(name, settings));
  const search = kept.length === 0 ? '' : `?${new URLSearchParams(kept).toString()}`;
  const credential =
    exchange.auth === 'valid' ? '' : exchange.auth === 'none' ? ' without a credential' : ' with a wrong credential';
  return withoutRunNames(`${exchange.method} ${shownPath}${readable(search)}${credential}`, base);
}

/** A query as a person reads it; left encoded where it does not decode. */
function readable(search: string): string {
  try {
    return decodeURIComponent(search);
  } catch {
    return search;
  }
}

/** The relative number of the run name in a request body, for putting writes sent together back in the order they were made. */
function nameNumber(exchange: RecordedExchange): number {
  const match = RUN_NAME.exec(exchange.request ?? '');
  RUN_NAME.lastIndex = 0;
  return match ? Number(match[1]) : 0;
}

/**
 * Writes sent together (ROBUST-07's concurrent updates) are recorded in the order their answers came,
 * which no two runs share; each carries a name made in order, which puts them back in the order sent.
 */
function inOrderSent(exchanges: RecordedExchange[]): RecordedExchange[] {
  const ordered: RecordedExchange[] = [];
  let run: RecordedExchange[] = [];
  const flush = () => {
    ordered.push(...run.sort((a, b) => nameNumber(a) - nameNumber(b)));
    run = [];
  };
  for (const exchange of exchanges) {
    const last = run.at(-1);
    if (last && !(exchange.method === 'PUT' && last.method === 'PUT' && exchange.url === last.url)) flush();
    run.push(exchange);
  }
  flush();
  return ordered;
}

/** The test's exchanges as steps: the shop's own answers, pages merged, re-reads collapsed, names and ids normalised. */
export function stepsOf(exchanges: readonly RecordedExchange[], settings: PagingSettings): Step[] {
  const base = nameBase(exchanges);
  const ids = new IdNames();
  const own = inOrderSent(
    exchanges.filter((exchange) => exchange.status === undefined || !NOT_THE_SHOPS.has(exchange.status)),
  );
  const steps: Step[] = [];
  let previous: RecordedExchange | undefined;
  for (const exchange of own) {
    const last = steps.at(-1);
    if (last && continuesList(previous, exchange, settings)) {
      last.pages += 1;
      previous = exchange;
      continue;
    }
    previous = exchange;
    const request = requestWords(exchange, ids, base, settings);
    // A list read again at once is waiting for a write to show (ZONES_CONSISTENCY_TIMEOUT_MS): the last read is the one the test used.
    if (last && last.operation === 'list' && exchange.method === 'GET' && last.request === request) {
      last.exchange = exchange;
      last.pages = 1;
      continue;
    }
    steps.push({ index: steps.length + 1, operation: operationOf(exchange.method), request, exchange, pages: 1 });
  }
  return steps;
}
