// Every exchange of every test as data, for comparing two runs step by step (helpers/drift), kept only
// when drift asks (`--record-exchanges FILE`): a certificate keeps whole exchanges only for the tests
// that did not pass. Made in the worker, where the whole body is known, from the masked text reports show.
import { isLosslessNumber, LosslessNumber, parse, stringify } from 'lossless-json';
import { SHOWN_BODY_BYTES, shownBody } from './bounded-body.ts';
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

/** The answer's headers a person reads a difference by: its content type, a redirect's target, a challenge, its paging. */
const SHOWN_HEADERS: readonly string[] = ['content-type', 'location', 'www-authenticate', ...PAGING_HEADERS];

/** What went and what came back as a person reads it: masked, each body cut at 8 KiB with its size and sha256, none when empty. */
export interface ExchangeBodies {
  request: { method: Method; url: string; body?: string };
  answer: { status?: number; headers: Record<string, string>; body?: string };
}

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
  bodies: ExchangeBodies;
}

/** A list longer than this keeps only the run's own zones, or its first item when it has none. */
const LONGEST_LIST_KEPT = 20;

/** A real shop's list holds other people's zones and earlier runs' leftovers: only the run's own, however many, are what both targets were asked to hold. */
function cutDown(value: unknown, isOwn: (item: unknown) => boolean): unknown {
  if (Array.isArray(value)) {
    const items = value.length <= LONGEST_LIST_KEPT ? value : value.filter(isOwn);
    const kept = items.length === 0 && value.length > 0 ? [value[0]] : items;
    return kept.map((item) => cutDown(item, isOwn));
  }
  if (value === null || typeof value !== 'object' || isLosslessNumber(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutDown(item, isOwn)]));
}

/** Room for a page of the suite's zones with undocumented fields: past it the file grows by the shop's data. */
const LONGEST_ANSWER_KEPT = 8 * SHOWN_BODY_BYTES;

function jsonText(text: string | undefined, isOwn: (item: unknown) => boolean): string | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  try {
    const value = parse(text, null, (digits) => new LosslessNumber(digits));
    return stringify(cutDown(value, isOwn));
  } catch {
    // Not JSON, or nested past what a recursive parser survives (a RangeError): nothing to compare by shape.
    return undefined;
  }
}

/**
 * The exchange as data; `exchange` holds bodies already masked (evidence.ts), `isOwn` tells the run's own zones. A
 * request body past what the reports show (ROBUST-04's 1 MiB) is not kept as data: drift compares answers.
 */
export function exchangeDetail(exchange: Exchange, isOwn: (item: unknown) => boolean): ExchangeDetail {
  const headers = exchange.responseHeaders;
  const sent = exchange.requestBody;
  const request = sent === undefined || Buffer.byteLength(sent) > SHOWN_BODY_BYTES ? undefined : jsonText(sent, isOwn);
  const unread = exchange.bodyLimit ? 'not read whole' : exchange.notJson ? 'not JSON' : undefined;
  const parsed = unread ? undefined : jsonText(exchange.responseBody, isOwn);
  const tooLong = parsed !== undefined && Buffer.byteLength(parsed) > LONGEST_ANSWER_KEPT;
  const answer = tooLong ? undefined : parsed;
  const empty = exchange.responseBody.trim() === '' ? 'no body' : undefined;
  const answerNote = unread ?? empty ?? (tooLong ? 'too long to keep' : undefined);
  const shownHeaders = Object.fromEntries(Object.entries(headers).filter(([name]) => SHOWN_HEADERS.includes(name)));
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
    bodies: {
      request: { method: exchange.method, url: exchange.url, body: sent ? shownBody(sent) : undefined },
      // A JSON answer as the run's own zones only, however long the list: a person reads the shop's own data, not others'.
      answer: {
        status: exchange.status,
        headers: shownHeaders,
        body: shownBody(parsed ?? exchange.responseBody) || undefined,
      },
    },
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
