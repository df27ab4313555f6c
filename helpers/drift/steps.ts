// A test's exchanges as the steps drift compares: the requests the suite chose to send, one each,
// with the opaque parts named by their order in the test. What the two runs cannot share (ids, the
// run's names, a random status) would otherwise make every step differ; what is the way to the shop
// rather than the shop (429s, a gateway's 502 to 504, the pages of one list, the re-reads of a list
// that lags) would make the two runs' steps fall out of line.
import type { RecordedExchange } from '../evidence/exchange-detail.ts';
import { continuesListRead, isPagingParam, isTheShopsAnswer, type PagingParams } from '../evidence/list-reads.ts';
import { runNamePattern } from '../ownership/run-names.ts';

export const OPERATIONS = ['list', 'create', 'update', 'delete'] as const;
export type Operation = (typeof OPERATIONS)[number];

export interface Step {
  operation: Operation;
  /** What was asked, the same words on both targets while they do the same: `PUT zones/<id1>.json`. */
  request: string;
  /** The exchange compared: a list's first page, whose status, headers and content type stand for the read. */
  exchange: RecordedExchange;
  /** Every page of a list read, the first included; the one exchange of any other step. */
  pages: RecordedExchange[];
  /** Writes of one zone sent together with this one (ROBUST-07's), itself included: which lands last is timing. */
  together?: RecordedExchange[];
}

const OPERATION: Record<string, Operation> = { GET: 'list', POST: 'create', PUT: 'update', DELETE: 'delete' };

/** The status ROBUST-05 and the filter hints ask for, random each time. */
const NO_SUCH_STATUS = /zc-no-such-status-[0-9a-f]{8}/g;

/** How a run's names are told apart and numbered in one test: its run id and the first number it sent there. */
type RunNames = { pattern: RegExp; base: number };

/** Names become <name+k>, k from the first name the test sent (an answer may show anyone's), so runs that made more zones before agree. */
export function runNames(exchanges: readonly RecordedExchange[], runId: string): RunNames {
  const pattern = runNamePattern(runId);
  let base = Number.POSITIVE_INFINITY;
  for (const exchange of exchanges)
    for (const match of `${exchange.url}\n${exchange.request ?? ''}`.matchAll(pattern))
      base = Math.min(base, Number(match[1]));
  return { pattern, base: Number.isFinite(base) ? base : 0 };
}

/** Text with the run's names and random statuses in the words both runs share. */
export function withoutRunNames(text: string, names: RunNames): string {
  return text
    .replace(names.pattern, (_, n: string) => `<name+${Number(n) - names.base}>`)
    .replace(NO_SUCH_STATUS, 'zc-no-such-status-<random>');
}

/** The request in words, `zones.json` or `zones/<id>.json` after /admin/api/<version>/, each id named by its first use: <id1>, <id2>... */
function requestWords(exchange: RecordedExchange, ids: Map<string, string>, names: RunNames, paging: PagingParams) {
  const url = new URL(exchange.url);
  const path = url.pathname.replace(/^.*?\/admin\/api\/[^/]+\//, '');
  const one = /^zones\/(.+?)(\.json)?$/.exec(path);
  let shownPath = path;
  if (one) {
    const id = decodeURIComponent(one[1]!);
    ids.set(id, ids.get(id) ?? `<id${ids.size + 1}>`);
    shownPath = `zones/${ids.get(id)}${one[2] ?? ''}`;
  }
  const kept = [...url.searchParams.entries()].filter(([name]) => !isPagingParam(name, paging));
  // As a person reads it: what URLSearchParams encodes always decodes.
  const search = kept.length === 0 ? '' : `?${decodeURIComponent(new URLSearchParams(kept).toString())}`;
  const credential =
    exchange.auth === 'valid' ? '' : exchange.auth === 'none' ? ' without a credential' : ' with a wrong credential';
  return withoutRunNames(`${exchange.method} ${shownPath}${search}${credential}`, names);
}

/** The relative number of the run name in a request body, for putting writes sent together back in the order they were made. */
function nameNumber(exchange: RecordedExchange, names: RunNames): number {
  const match = exchange.request?.match(new RegExp(names.pattern.source));
  return match ? Number(match[1]) : 0;
}

/** The rules whose test sends writes of one zone together, so that which lands last is timing by design. */
export const WRITES_SENT_TOGETHER: ReadonlySet<string> = new Set(['ROBUST-07']);

/**
 * Writes of one zone sent together are recorded as answered, which no two runs share. Put back in the order they
 * were made, refusals after successes, so that two runs that refused as many line up whatever the timing.
 */
function sentTogether(exchanges: RecordedExchange[], names: RunNames, together: boolean): RecordedExchange[][] {
  const groups: RecordedExchange[][] = [];
  for (const exchange of exchanges) {
    const last = groups.at(-1);
    const before = last?.at(-1);
    const joins = together && before?.method === 'PUT' && exchange.method === 'PUT' && exchange.url === before.url;
    if (joins) last!.push(exchange);
    else groups.push([exchange]);
  }
  const refused = (exchange: RecordedExchange) => Number(exchange.status === undefined || exchange.status >= 300);
  return groups.map((group) =>
    group.sort((a, b) => refused(a) - refused(b) || nameNumber(a, names) - nameNumber(b, names)),
  );
}

/** The test's exchanges as steps: the shop's own answers, pages merged, re-reads collapsed, names and ids normalised. */
export function stepsOf(
  exchanges: readonly RecordedExchange[],
  paging: PagingParams,
  runId: string,
  writesSentTogether = false,
): Step[] {
  const names = runNames(exchanges, runId);
  const ids = new Map<string, string>();
  const steps: Step[] = [];
  let previous: RecordedExchange | undefined;
  const groups = sentTogether(exchanges.filter(isTheShopsAnswer), names, writesSentTogether);
  for (const exchange of groups.flat()) {
    const last = steps.at(-1);
    const continues = last && continuesListRead(previous, exchange, paging);
    previous = exchange;
    if (continues) {
      last.pages.push(exchange);
      continue;
    }
    const request = requestWords(exchange, ids, names, paging);
    // A list read again at once is waiting for a write to show (ZONES_CONSISTENCY_TIMEOUT_MS): the last read is the one the test used.
    if (last?.operation === 'list' && exchange.method === 'GET' && last.request === request) {
      last.exchange = exchange;
      last.pages = [exchange];
    } else {
      const together = groups.find((group) => group.length > 1 && group.includes(exchange));
      const operation = OPERATION[exchange.method] ?? 'list';
      steps.push({ operation, request, exchange, pages: [exchange], ...(together ? { together } : {}) });
    }
  }
  return steps;
}
