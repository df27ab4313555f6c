// Every exchange of every test as data, for comparing two runs step by step (helpers/drift), kept only
// when drift asks (`--record-exchanges FILE`): a certificate keeps whole exchanges only for the tests
// that did not pass. Made in the worker, where the whole body is known, from the masked text reports show.
import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';
import { SHOWN_BODY_BYTES } from './bounded-body.ts';
import type { AuthMode, Exchange, Method } from './exchange.ts';
import { nextPageLink } from './link-header.ts';

/** Headers that say how a list pages; only whether each is there is kept, since their values name one shop's addresses. */
const PAGING_HEADERS = [
  'link',
  'x-total-count',
  'x-total',
  'x-page',
  'x-per-page',
  'x-next-page',
  'x-next-cursor',
  'x-pagination',
] as const;

export interface ExchangeDetail {
  method: Method;
  url: string;
  auth: AuthMode;
  /** Absent: no answer came. */
  status?: number;
  contentType?: string;
  /** The PAGING_HEADERS the answer carried. */
  pagingHeaders: string[];
  /** What a Link header named rel="next", an address or, when it is no URL, as written: what tells a next page from a new read. */
  nextPage?: string;
  unreadableNextPage?: string;
  /** The bodies as JSON text (numbers kept exactly), the answer's long lists cut down to the suite's own zones. */
  request?: string;
  answer?: string;
  /** Why `answer` is absent: no body, not JSON, not read whole, or too long to keep. */
  answerNote?: string;
}

/** A list longer than this keeps only the suite's own zones (named zc-...), or its first item when it has none. */
const LONGEST_LIST_KEPT = 20;
const SUITE_NAME = /^zc-/;

function isSuiteZone(item: unknown): boolean {
  const name = item !== null && typeof item === 'object' ? (item as { name?: unknown }).name : undefined;
  return typeof name === 'string' && SUITE_NAME.test(name);
}

/** A real shop's list holds other people's zones, hundreds of them: only the suite's own are what both targets were asked to hold. */
function cutDown(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.length <= LONGEST_LIST_KEPT ? value : value.filter(isSuiteZone).slice(0, LONGEST_LIST_KEPT);
    const kept = items.length === 0 && value.length > 0 ? [value[0]] : items;
    return kept.map(cutDown);
  }
  if (value === null || typeof value !== 'object' || isLosslessNumber(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutDown(item)]));
}

/** Room for a page of the suite's zones with undocumented fields: past it the file grows by the shop's data. */
const LONGEST_ANSWER_KEPT = 8 * SHOWN_BODY_BYTES;

function jsonText(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  try {
    return stringify(cutDown(parse(text, null, (digits) => new LosslessNumber(digits))));
  } catch {
    // Not JSON, or nested past what a recursive parser survives (a RangeError): nothing to compare by shape.
    return undefined;
  }
}

/** `exchange` holds bodies already masked (evidence.ts). */
export function exchangeDetail(exchange: Exchange): ExchangeDetail {
  const headers = exchange.responseHeaders;
  // A request body past what the reports show (ROBUST-04's 1 MiB) is not kept: drift compares answers.
  const sentBody = exchange.requestBody ?? '';
  const request = Buffer.byteLength(sentBody) > SHOWN_BODY_BYTES ? undefined : jsonText(sentBody);
  const parsed = exchange.bodyLimit || exchange.notJson ? undefined : jsonText(exchange.responseBody);
  const tooLong = parsed !== undefined && Buffer.byteLength(parsed) > LONGEST_ANSWER_KEPT;
  const answer = tooLong ? undefined : parsed;
  const answerNote = exchange.bodyLimit
    ? 'not read whole'
    : exchange.notJson
      ? 'not JSON'
      : exchange.responseBody.trim() === ''
        ? 'no body'
        : tooLong
          ? 'too long to keep'
          : undefined;
  return {
    method: exchange.method,
    url: exchange.url,
    auth: exchange.auth,
    ...(exchange.status === undefined ? {} : { status: exchange.status }),
    ...(headers['content-type'] === undefined ? {} : { contentType: headers['content-type'] }),
    pagingHeaders: PAGING_HEADERS.filter((name) => headers[name] !== undefined),
    ...nextPageOf(headers.link, exchange.url),
    ...(request === undefined ? {} : { request }),
    ...(answer === undefined ? {} : { answer }),
    ...(answerNote === undefined ? {} : { answerNote }),
  };
}

function nextPageOf(link: string | undefined, url: string): Pick<ExchangeDetail, 'nextPage' | 'unreadableNextPage'> {
  const found = nextPageLink(link, url);
  if (!found.ok) return { unreadableNextPage: found.target };
  return found.next === undefined ? {} : { nextPage: found.next };
}

/** An exchange as the exchanges file keeps it. */
export interface RecordedExchange extends ExchangeDetail {
  line: string;
  curl: string;
}

/** One line of the exchanges file: a test, how it ended, and each exchange of its body. */
export interface TestExchanges {
  title: string;
  ruleId?: string;
  /** passed, failed, not-verified or suite-error, as the collector classified it. */
  state: string;
  exchanges: RecordedExchange[];
}
