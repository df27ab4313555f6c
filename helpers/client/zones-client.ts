// The one place that talks to the shop: paths, credential, envelopes, time limits, the ownership
// guard and the record of every exchange. Tests never build a URL or a header themselves.
import { STATUS_CODES } from 'node:http';
import { request } from 'undici';
import type { TargetConfig } from '../config.ts';
import { readBodyWithin } from '../connection/body-limits.ts';
import { dispatcherFor } from '../connection/transport.ts';
import { errorCodeOf, isCertificateCode } from '../connection/trust.ts';
import type { Answer, AuthMode, BodyLimit, Exchange, Method } from '../evidence/exchange.ts';
import { countRequest, type RequestTally, type Resend } from '../evidence/request-tally.ts';
import { Secrets } from '../evidence/secrets.ts';
import type { Ledger } from '../ownership/ledger.ts';
import { type OutageStart, outageFor } from '../pacing/outage.ts';
import { sleep, throttleFor } from '../pacing/throttle.ts';
import { JsonTooDeepError, parseJson, stringifyJson } from './json.ts';
import { findZone, namedIn } from './list-lookups.ts';
import { isPastLastPage, nextPageUrl, startListWalk } from './paging.ts';
import { PreconditionError } from './precondition.ts';
import {
  listItems,
  readZone,
  toZoneRecords,
  unreadable,
  wrapZone,
  type ZoneId,
  type ZoneRead,
  type ZoneRecord,
  type ZonesRead,
} from './records.ts';
import { describeBodyLimit, describeNotJson, NotJsonBody, pageGist } from './what-came-back.ts';

export type { Answer, AuthMode, Exchange, Method } from '../evidence/exchange.ts';
export type { OutageStart } from '../pacing/outage.ts';

export interface ListAnswer extends Answer {
  /** The zones of every page, or why the answer could not be read as a list. */
  read: ZonesRead;
  pages: Answer[];
  /** The status the list was filtered by, if it was. */
  filter?: string;
  /** The zone objects of the pages read, as the shop wrote them, even when their ids can't be read. */
  items: Record<string, unknown>[];
  /** Every page was read: `items` is all the shop listed. */
  itemsWhole: boolean;
}

export interface ZoneAnswer extends Answer {
  /** The zone the answer shows, or why it shows none. */
  read: ZoneRead;
}

export class OwnershipError extends Error {
  constructor(method: Method, id: ZoneId) {
    super(`refused to send ${method} to zone ${id.text}: this run did not create it (ownership ledger)`);
    this.name = 'OwnershipError';
  }
}

export class TransportError extends Error {
  constructor(
    readonly exchange: Exchange,
    message = `${exchange.method} ${exchange.url} got no answer: ${exchange.error}`,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/**
 * An answer whose body went past a limit of the suite (size, total time, nesting) and was not read:
 * as good as no answer, so nothing is learned from it, and a create behind it is looked up by name.
 */
export class BodyLimitError extends TransportError {
  constructor(exchange: Exchange, limit: BodyLimit) {
    const type = exchange.responseHeaders['content-type'];
    super(
      exchange,
      `${exchange.method} ${exchange.url} answered ${exchange.status}${type ? ` (${type})` : ''}, but ${limit.why}`,
    );
    this.name = 'BodyLimitError';
  }
}

/**
 * The shop did not answer for itself: its gateway answered 502, 503 or 504 (after the GET was asked
 * again within ZONES_OUTAGE_BUDGET_MS; a write is never sent twice), or a GET got no answer past the
 * budget. What came back says nothing about the shop's rules, so a check that meets it is not
 * verified, never failed. `spent`: the outage outlasted the budget, and the run is to stop.
 */
export class ShopUnavailableError extends TransportError {
  constructor(
    exchange: Exchange,
    readonly outage: OutageStart & { spent: boolean; budgetMs: number },
  ) {
    const waited = outage.spent
      ? `; the shop has not answered for itself since ${outage.since}, longer than ZONES_OUTAGE_BUDGET_MS=${outage.budgetMs}`
      : '';
    super(exchange, `${cameBack(exchange)}: the shop is not answering for itself (an outage, not an answer)${waited}`);
    this.name = 'ShopUnavailableError';
  }
}

/** `GET url answered 503 Service Unavailable (text/html, a page titled "Back soon")`, or that none came. */
export function cameBack(exchange: Exchange): string {
  if (exchange.status === undefined) return `${exchange.method} ${exchange.url} got no answer (${exchange.error})`;
  const type = exchange.responseHeaders['content-type'] ?? 'no content type';
  const reason = STATUS_CODES[exchange.status];
  const gist = pageGist(exchange.responseHeaders['content-type'], exchange.responseBody);
  return `${exchange.method} ${exchange.url} answered ${exchange.status}${reason ? ` ${reason}` : ''} (${type}, ${gist})`;
}

/**
 * What a gateway or load balancer answers when the application behind it is not there. A 500 is the
 * application's own failure, and stays evidence.
 */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

export function isGatewayAnswer(exchange: Exchange): boolean {
  return exchange.status !== undefined && GATEWAY_STATUSES.has(exchange.status);
}

/**
 * A success that is an HTML page and no JSON at all: a maintenance or sign-in front that answers 200
 * with its page. The interface speaks JSON, so such a page answers none of a check's questions.
 */
export function isFrontPage(exchange: Exchange): boolean {
  const type = exchange.responseHeaders['content-type'] ?? '';
  const success = exchange.status !== undefined && exchange.status >= 200 && exchange.status <= 299;
  return success && exchange.notJson !== undefined && /html/i.test(type);
}

export interface ClientOptions {
  ledger: Ledger;
  onExchange?: (exchange: Exchange) => void;
  /** Told when a list needed re-reading before a write showed, and for how long. */
  onLag?: (waitedMs: number) => void;
  /**
   * Whether a GET that ran out of time is sent again like any other GET without an answer. The
   * preflight says no: a host that takes connections and never answers is told at the first time
   * limit, not after three more; a dropped connection is still retried there.
   */
  resendTimedOutGets?: boolean;
  /**
   * Whether a success that is an HTML page (isFrontPage) is the answer the caller gets. The preflight
   * says yes, to name ZONES_BASE_URL for a sign-in page; in the tests it is waited out like a
   * gateway's answer, within the outage budget, and never reaches a check.
   */
  frontPagesAnswer?: boolean;
  /**
   * How long an outage is waited for, instead of ZONES_OUTAGE_BUDGET_MS: the preflight waits a few
   * seconds, since a shop in maintenance at the start is told at once, not after a budget.
   */
  outageBudgetMs?: number;
  /**
   * The tally each request is counted in as it is sent, asked anew for every request: a test's
   * fixture counts its clean-up apart from the check.
   */
  tallyFor?: () => RequestTally;
}

/** How a list read copes with read-after-write lag (ZONES_CONSISTENCY_TIMEOUT_MS). */
export type Settle =
  /** Re-read until the list satisfies this, or the consistency timeout passes. */
  | ((list: ListAnswer) => boolean)
  /** Wait out the whole consistency timeout first: for checks that a call changed nothing. */
  | 'after-timeout';

const MAX_PAGES = 1000;
const MAX_THROTTLED_RETRIES = 10;
const MAX_TRANSIENT_RETRIES = 3;
/** The longest back-off between GETs during an outage without Retry-After: a few requests a minute. */
const MAX_OUTAGE_BACKOFF_MS = 8_000;
const SETTLE_POLL_MS = 200;

export class ZonesClient {
  private readonly secrets: Secrets;
  private readonly extraFields: Record<string, unknown>;
  private readonly creationListeners: ((id: ZoneId) => void)[] = [];

  constructor(
    readonly config: TargetConfig,
    private readonly options: ClientOptions,
  ) {
    this.secrets = new Secrets(config);
    this.extraFields = parseJson(config.extraFields) as Record<string, unknown>;
  }

  get ledger(): Ledger {
    return this.options.ledger;
  }

  /** Told of every zone a create brought into being, so its owner can clean it up. */
  whenCreated(listener: (id: ZoneId) => void): void {
    this.creationListeners.push(listener);
  }

  /**
   * The same client, reading lists at the shop's own page size: the preflight asks with it once more
   * when the shop refuses ZONES_PAGE_SIZE.
   */
  withoutPageSize(): ZonesClient {
    return new ZonesClient({ ...this.config, pageSize: undefined }, this.options);
  }

  /**
   * The outage the shop is in, once it has outlasted the budget: the run is to stop. Undefined while
   * the shop answers, or while the budget lasts.
   */
  spentOutage(): OutageStart | undefined {
    const outage = outageFor(this.config.baseUrl);
    return outage.leftMs(this.options.outageBudgetMs ?? this.config.outageBudgetMs) === 0 ? outage.start : undefined;
  }

  collectionUrl(): string {
    return `${this.config.baseUrl}/admin/api/${this.config.apiVersion}/zones.json`;
  }

  zoneUrl(id: ZoneId): string {
    return `${this.config.baseUrl}/admin/api/${this.config.apiVersion}/zones/${encodeURIComponent(id.text)}.json`;
  }

  async listZones(options: { status?: string; auth?: AuthMode; settle?: Settle } = {}): Promise<ListAnswer> {
    const patience = this.config.consistencyTimeoutMs;
    if (options.settle === undefined || patience === 0) return this.readList(options);
    if (options.settle === 'after-timeout') {
      await sleep(patience);
      return this.readList(options);
    }
    const started = Date.now();
    let list = await this.readList(options);
    while (!options.settle(list) && Date.now() - started < patience) {
      await sleep(Math.min(SETTLE_POLL_MS, patience));
      list = await this.readList(options);
      if (options.settle(list)) this.options.onLag?.(Date.now() - started);
    }
    return list;
  }

  private firstPageUrl(status: string | undefined): string {
    const url = new URL(this.collectionUrl());
    if (status !== undefined) url.searchParams.set(this.config.statusParam, this.config.filterValues[status] ?? status);
    // On the first page only: page numbers and cursors are sent beside it (paging.ts builds them from
    // this URL), and a Link or a cursor URL is the shop's own to carry it on.
    if (this.config.pageSize !== undefined)
      url.searchParams.set(this.config.pageSizeParam, String(this.config.pageSize));
    return url.toString();
  }

  private async readList(options: { status?: string; auth?: AuthMode }): Promise<ListAnswer> {
    const url = new URL(this.firstPageUrl(options.status));
    const walk = startListWalk(this.config, url.toString());
    const pages: Answer[] = [];
    const zones: ZoneRecord[] = [];
    const items: Record<string, unknown>[] = [];
    let next: string | undefined = url.toString();
    let problem: string | undefined;
    let pastLastPage = false;
    let whole = false;
    // How pages are linked is a setting (ZONES_PAGING): a list is whole only across its pages.
    while (next !== undefined) {
      // A list cut short proves nothing about what it lacks: the check cannot be made, not failed.
      if (pages.length === MAX_PAGES)
        throw new PreconditionError(`the list runs past ${MAX_PAGES} pages, so it cannot be read whole`);
      if (new URL(next).origin !== url.origin)
        throw new PreconditionError(
          `the list's next page is on another host (${new URL(next).origin}); the credential is not sent there`,
        );
      const page = await this.send('GET', next, options.auth ?? 'valid');
      pages.push(page);
      if (page.status < 200 || page.status > 299) {
        pastLastPage = isPastLastPage(this.config, pages.length, page.status);
        break;
      }
      const pageItems = listItems(this.config, page.body);
      if (!pageItems.ok) {
        problem = pageItems.problem;
        break;
      }
      items.push(...pageItems.items);
      const read = toZoneRecords(this.config, pageItems.items);
      if (!read.ok) {
        problem ??= read.problem;
        // Records whose ids can't be read still count as read. A Link header still says where the list
        // goes on, so the walk does, and what the shop holds is known whole (preflight proves with it
        // which zone is ours when ZONES_ID_FIELD is wrong); the other walks need the ids.
        next = this.config.paging === 'link' ? nextPageUrl(page.exchange.responseHeaders.link, next) : undefined;
        whole = next === undefined && this.config.paging === 'link';
        continue;
      }
      const step = walk({ url: next, body: page.body, link: page.exchange.responseHeaders.link, zones: read.zones });
      zones.push(...step.zones);
      next = step.next;
      if (next === undefined) whole = true;
    }
    // The 404 past the last page stays among the pages, as evidence; the list's answer is the page before.
    const last = pages[pages.length - (pastLastPage ? 2 : 1)]!;
    return {
      ...last,
      pages,
      read: problem === undefined ? { ok: true, zones } : unreadable(problem),
      filter: options.status,
      items,
      itemsWhole: whole || pastLastPage,
    };
  }

  async createZone(fields: Record<string, unknown>, auth: AuthMode = 'valid'): Promise<ZoneAnswer> {
    return this.createFromText(this.bodyText(fields), typeof fields.name === 'string' ? fields.name : undefined, auth);
  }

  /**
   * A create whose body goes out exactly as given, or without one: the robustness probes send what no
   * correct client would. `name` is the run-unique name the body carries, if it carries one, by which
   * a zone it made is found when the answer shows none.
   */
  async createFromText(body: string | undefined, name?: string, auth: AuthMode = 'valid'): Promise<ZoneAnswer> {
    let answer: Answer;
    try {
      answer = await this.send('POST', this.collectionUrl(), auth, body);
    } catch (error) {
      // Never re-send a create whose outcome is unknown: look for what it made, and own that.
      if (error instanceof TransportError && name !== undefined) await this.adoptByName(name);
      throw error;
    }
    const read = readZone(this.config, answer.body);
    // Whatever credential was used: a zone that exists because of us is ours to clean up.
    if (isSuccess(answer) && read.ok) {
      this.recordMade(read.zone.id, name ?? String(read.zone.name));
    } else if (isSuccess(answer) && name !== undefined) {
      // A success that shows no zone still made one: find it by its unique name.
      await this.adoptByName(name);
    }
    return { ...answer, read };
  }

  async updateZone(id: ZoneId, fields: Record<string, unknown>, auth: AuthMode = 'valid'): Promise<ZoneAnswer> {
    const wasDeleted = this.options.ledger.isDeleted(id.text);
    const answer = await this.writeTo('PUT', id, auth, this.bodyText(fields), fields.name);
    // A PUT that succeeds on an id this run deleted has made the zone anew (a "create or replace"
    // PUT): it exists because of us, so it is ours to remove.
    if (wasDeleted && isSuccess(answer)) this.recordMade(id, String(fields.name));
    return { ...answer, read: readZone(this.config, answer.body) };
  }

  async deleteZone(id: ZoneId, auth: AuthMode = 'valid'): Promise<Answer> {
    const answer = await this.writeTo('DELETE', id, auth);
    if (isSuccess(answer) && this.options.ledger.owns(id.text)) this.options.ledger.recordDeleted(id.text);
    return answer;
  }

  /** Zones with this (run-unique) name now exist because of this run: they go into the ledger. */
  async adoptByName(name: string, settle: Settle = (list) => namedIn(list, name).length > 0): Promise<ZoneRecord[]> {
    return this.adoptFrom(await this.listZones({ settle }), name);
  }

  /** The zones of this list that carry this (run-unique) name, taken into the ledger. */
  adoptFrom(list: ListAnswer, name: string): ZoneRecord[] {
    return this.adopt(namedIn(list, name), name);
  }

  /**
   * Zones found carrying a mark only this run sent (its unique name, in whatever form the shop kept
   * it), taken into the ledger under that mark.
   */
  adopt(found: ZoneRecord[], name: string): ZoneRecord[] {
    const ledger = this.options.ledger;
    for (const zone of found) {
      // A deleted id listed under our unique name again is a zone we made anew under a reused id.
      if (!ledger.owns(zone.id.text) || ledger.isDeleted(zone.id.text))
        ledger.recordCreated(zone.id.text, name, this.config.baseUrl);
      for (const listener of this.creationListeners) listener(zone.id);
    }
    return found;
  }

  /** A zone that exists because of this run: into the ledger, and to whoever cleans up after it. */
  private recordMade(id: ZoneId, name: string): void {
    this.options.ledger.recordCreated(id.text, name, this.config.baseUrl);
    for (const listener of this.creationListeners) listener(id);
  }

  /**
   * The guard that keeps the suite off other people's zones, enforced here rather than by habit: a
   * write to a zone goes out only if this run made it. An id this run deleted may since have been
   * given to somebody else's zone (some stores reuse ids, a fake-REST mock the highest plus one): it
   * is written to again only while the list shows no zone under it. Nothing of the suite runs beside
   * the test (one test at a time per shop), so no create of the run can take the id between the read
   * and the write.
   */
  private async writeTo(
    method: 'PUT' | 'DELETE',
    id: ZoneId,
    auth: AuthMode,
    body?: string,
    name?: unknown,
  ): Promise<Answer> {
    const ledger = this.options.ledger;
    if (method === 'DELETE' && id.text === this.config.bookedZoneId) return this.send(method, this.zoneUrl(id), auth);
    if (!ledger.owns(id.text)) throw new OwnershipError(method, id);
    if (ledger.isDeleted(id.text)) {
      const list = await this.listZones();
      if (!list.read.ok)
        throw new PreconditionError(
          `zone ${id.text} was deleted by this run, and the list cannot be read; it is left alone`,
        );
      if (findZone(list.read.zones, id))
        throw new PreconditionError(
          `zone ${id.text} was deleted by this run, and the list shows a zone under that id again; it is left alone`,
        );
    }
    // `npm run sweep` knows a zone of the run by a name the run gave it. Written before the PUT goes,
    // whatever the credential: its answer may never come, and the zone may carry the name even so. A
    // name that is not text is not written: a list shows it in a form no name comparison can trust.
    if (method === 'PUT' && typeof name === 'string') ledger.recordRenamed(id.text, name);
    return this.send(method, this.zoneUrl(id), auth, body);
  }

  /** A create or update body as the settings shape it: the envelope, and ZONES_EXTRA_FIELDS. */
  bodyText(fields: Record<string, unknown>): string {
    return stringifyJson(wrapZone(this.config, { ...this.extraFields, ...fields }));
  }

  private credential(auth: AuthMode): string | undefined {
    if (auth === 'none') return undefined;
    const token = auth === 'valid' ? this.config.token : this.secrets.forged;
    return this.config.authScheme === '' ? token : `${this.config.authScheme} ${token}`;
  }

  /** An answer of something in front of the shop, not of the shop: a gateway's, or (but in the preflight) a page. */
  private fromFront(exchange: Exchange): boolean {
    return isGatewayAnswer(exchange) || (this.options.frontPagesAnswer !== true && isFrontPage(exchange));
  }

  private async send(method: Method, url: string, auth: AuthMode, body?: string): Promise<Answer> {
    const throttle = throttleFor(this.config.baseUrl, this.config.maxRps);
    const outage = outageFor(this.config.baseUrl);
    const budgetMs = this.options.outageBudgetMs ?? this.config.outageBudgetMs;
    let throttledRetries = 0;
    let transientRetries = 0;
    let resend: Resend | undefined;
    for (;;) {
      await throttle.take();
      let exchange: Exchange;
      let answerBody: unknown;
      let announcedWait: number | undefined;
      try {
        ({ exchange, body: answerBody } = await this.exchangeOnce(method, url, auth, body));
        // Told to the throttle before the next request may go, so that it goes outside any window.
        // A 429 is waited out even when given up on.
        if (exchange.status === 429) throttle.tooManyRequests(exchange.responseHeaders, throttledRetries);
        else throttle.answered(exchange.responseHeaders);
        const noAnswer = exchange.status === undefined && !isCertificateCode(exchange.errorCode);
        if (this.fromFront(exchange) || noAnswer) outage.missed(cameBack(exchange));
        else if (exchange.status !== undefined) outage.answered();
        // A 503's Retry-After holds back every request, a write's too, though only a GET is sent again;
        // never past the outage's budget, after which nobody waits for the shop.
        if (exchange.status === 503)
          announcedWait = throttle.unavailable(exchange.responseHeaders, outage.leftMs(budgetMs));
      } finally {
        throttle.release();
      }
      const tally = this.options.tallyFor?.();
      if (tally !== undefined) countRequest(tally, exchange, resend);
      this.options.onExchange?.(exchange);
      // A 429 was not processed, whatever the method: wait the window out and send it again.
      if (exchange.status === 429) {
        if (throttledRetries === MAX_THROTTLED_RETRIES) {
          // A 429 is no answer to the question asked; the check cannot be made.
          throw new TransportError({
            ...exchange,
            error: `still 429 Too Many Requests after ${MAX_THROTTLED_RETRIES} waits`,
          });
        }
        throttledRetries += 1;
        resend = 'after-429';
        continue;
      }
      const gateway = this.fromFront(exchange);
      const noAnswer = exchange.status === undefined && !isCertificateCode(exchange.errorCode);
      const left = outage.leftMs(budgetMs);
      // Only a GET may be sent twice blindly; a write whose outcome is unknown is never repeated.
      // A certificate that is not trusted now will not be trusted a second later. A gateway's answer
      // is asked again for as long as the budget lasts; no answer at all, as before, a few times
      // (a closed port is told in seconds), its outage still counting towards the budget.
      const again =
        method === 'GET' &&
        !(this.options.resendTimedOutGets === false && ranOutOfTime(exchange, this.config.timeoutMs)) &&
        (gateway
          ? left > 0
          : noAnswer
            ? left > 0 && transientRetries < MAX_TRANSIENT_RETRIES
            : exchange.bodyLimit?.kind === 'time' && transientRetries < MAX_TRANSIENT_RETRIES);
      if (again) {
        transientRetries += 1;
        resend = 'after-no-answer';
        // An announced wait is already kept by the throttle; without one, back off.
        if (announcedWait === undefined)
          await sleep(Math.min(250 * 2 ** transientRetries, MAX_OUTAGE_BACKOFF_MS, gateway ? left : Infinity));
        continue;
      }
      const start = outage.start;
      if ((gateway || (noAnswer && left === 0)) && start !== undefined)
        throw new ShopUnavailableError(exchange, { ...start, spent: left === 0, budgetMs });
      if (exchange.status === undefined) throw new TransportError(exchange);
      // A body past a limit was not read: no answer to check against, and the same for any caller.
      if (exchange.bodyLimit) throw new BodyLimitError(exchange, exchange.bodyLimit);
      return { exchange, status: exchange.status, body: answerBody };
    }
  }

  /** One request: its record (credential masked) and the answer's body, parsed. */
  private async exchangeOnce(
    method: Method,
    url: string,
    auth: AuthMode,
    body?: string,
  ): Promise<{ exchange: Exchange; body?: unknown }> {
    // identity: the suite decodes no compression, so it asks for none rather than call a gzip body "not JSON".
    const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'identity' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const credential = this.credential(auth);
    if (credential !== undefined) headers[this.config.authHeader.toLowerCase()] = credential;
    const started = performance.now();
    const exchange: Exchange = {
      method,
      url,
      auth,
      requestHeaders: this.secrets.maskHeaders(headers),
      requestBody: body,
      responseHeaders: {},
      responseBody: '',
      durationMs: 0,
    };
    let answerBody: unknown;
    // One deadline for the whole exchange, headers and body: undici's own time-outs are idle ones, and
    // a body that trickles a byte at a time would keep resetting them.
    const deadline = AbortSignal.timeout(this.config.timeoutMs);
    try {
      const response = await request(url, {
        dispatcher: dispatcherFor(this.config),
        method,
        headers,
        body,
        signal: deadline,
      });
      const announced = Number(response.headers['content-length']);
      const read = await readBodyWithin(response.body, {
        maxBytes: this.config.maxBodyBytes,
        deadline,
        announcedBytes: Number.isSafeInteger(announced) ? announced : undefined,
      });
      exchange.status = response.statusCode;
      exchange.responseHeaders = this.secrets.maskHeaders(flattenHeaders(response.headers));
      if (read.whole) {
        exchange.responseBody = this.secrets.mask(read.text);
        // Parsed from what the target sent: redaction is for the record, never for the comparison.
        answerBody = this.parseBody(read.text, exchange);
      } else {
        exchange.responseBody = this.secrets.maskHead(read.head);
        exchange.bodyLimit = describeBodyLimit(read.limit, {
          ...read,
          head: exchange.responseBody,
          maxBytes: this.config.maxBodyBytes,
          timeoutMs: this.config.timeoutMs,
        });
      }
    } catch (error) {
      exchange.error = this.secrets.mask(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      exchange.errorCode = errorCodeOf(error);
    }
    exchange.durationMs = Math.round(performance.now() - started);
    return { exchange, body: answerBody };
  }

  /** The body as JSON; what it is instead when it is not; nested too deep, a limit on the exchange. */
  private parseBody(text: string, exchange: Exchange): unknown {
    if (text.trim() === '') return undefined;
    try {
      return parseJson(text);
    } catch (error) {
      const facts = {
        head: exchange.responseBody,
        bytesRead: Buffer.byteLength(text),
        maxBytes: this.config.maxBodyBytes,
        timeoutMs: this.config.timeoutMs,
      };
      if (error instanceof JsonTooDeepError) {
        exchange.bodyLimit = describeBodyLimit('depth', facts);
        return undefined;
      }
      // Described from the record, never from the raw text: a page may echo the credential.
      exchange.notJson = describeNotJson(
        exchange.responseHeaders['content-type'],
        exchange.responseBody,
        (error as Error).message,
      );
      return new NotJsonBody(exchange.notJson);
    }
  }
}

/** No whole answer came within the request's time limit (as opposed to a refused or dropped connection). */
export function ranOutOfTime(exchange: Exchange, timeoutMs: number): boolean {
  // Timers fire a little early or late; a refused connection fails in milliseconds, far from the limit.
  return (
    (exchange.status === undefined || exchange.bodyLimit?.kind === 'time') && exchange.durationMs >= timeoutMs - 50
  );
}

export function isSuccess(answer: Answer): boolean {
  return answer.status >= 200 && answer.status <= 299;
}

export function isRefusal(answer: Answer): boolean {
  return answer.status >= 400 && answer.status <= 499;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
