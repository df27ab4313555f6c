// How a request reaches the shop, and what counts as its answer: a 429 waited out and sent again; a GET
// asked again while a gateway or a front answers in the shop's place; the errors that say none came.
import { STATUS_CODES } from 'node:http';
import { request } from 'undici';
import type { TargetConfig } from '../config.ts';
import { readBodyWithin } from '../connection/body-limits.ts';
import { dispatcherFor } from '../connection/transport.ts';
import { errorCodeOf, isCertificateCode } from '../connection/trust.ts';
import type { Answer, AuthMode, BodyLimit, Exchange, Method } from '../evidence/exchange.ts';
import { countRequest, type RequestTally, type Resend } from '../evidence/request-tally.ts';
import { Secrets } from '../evidence/secrets.ts';
import { JsonTooDeepError, parseJson } from '../json.ts';
import { type OutageStart, outageFor } from '../pacing/outage.ts';
import { sleep, throttleFor } from '../pacing/throttle.ts';
import { describeBodyLimit, describeNotJson, NotJsonBody, pageGist } from './what-came-back.ts';

export class TransportError extends Error {
  constructor(
    readonly exchange: Exchange,
    message = `${exchange.method} ${exchange.url} got no answer: ${exchange.error}`,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** A body past a limit of the suite was not read: as good as no answer, and a create behind it is looked up by name. */
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
 * The shop did not answer for itself (a gateway's 502 to 504, or no answer to a GET past the budget): a
 * check that meets it is not verified, never failed. `spent`: past ZONES_OUTAGE_BUDGET_MS, the run stops.
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

/** What a gateway or load balancer answers when the application behind it is not there; a 500 is the application's own failure, and stays evidence. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

export interface TransportOptions {
  onExchange?: (exchange: Exchange) => void;
  /** No in the preflight: a host that takes connections and never answers is told at the first time limit, not after three more. */
  resendTimedOutGets?: boolean;
  /** Yes in the preflight, to name ZONES_BASE_URL for a sign-in page; in the tests such a page is waited out like a gateway's answer. */
  frontPagesAnswer?: boolean;
  /** Instead of ZONES_OUTAGE_BUDGET_MS: the preflight waits a few seconds, since a shop in maintenance at the start is told at once. */
  outageBudgetMs?: number;
  /** Asked anew for every request: a test's fixture counts its clean-up apart from the check. */
  tallyFor?: () => RequestTally;
}

const MAX_THROTTLED_RETRIES = 10;
const MAX_TRANSIENT_RETRIES = 3;
/** The longest back-off between GETs during an outage without Retry-After: a few requests a minute. */
const MAX_OUTAGE_BACKOFF_MS = 8_000;

export class ShopTransport {
  private readonly secrets: Secrets;

  constructor(
    private readonly config: TargetConfig,
    private readonly options: TransportOptions,
  ) {
    this.secrets = new Secrets(config);
  }

  /** The outage the shop is in once it has outlasted the budget, when the run is to stop. */
  spentOutage(): OutageStart | undefined {
    const outage = outageFor(this.config.baseUrl);
    return outage.leftMs(this.options.outageBudgetMs ?? this.config.outageBudgetMs) === 0 ? outage.start : undefined;
  }

  /** A gateway's answer, or (but in the preflight) a maintenance or sign-in front's HTML page: the interface speaks JSON. */
  private fromFront({ status, notJson, responseHeaders }: Exchange): boolean {
    if (status === undefined) return false;
    const page =
      status >= 200 && status <= 299 && notJson !== undefined && /html/i.test(responseHeaders['content-type'] ?? '');
    return GATEWAY_STATUSES.has(status) || (this.options.frontPagesAnswer !== true && page);
  }

  async send(method: Method, url: string, auth: AuthMode, body?: string): Promise<Answer> {
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
      let gateway: boolean;
      let noAnswer: boolean;
      try {
        ({ exchange, body: answerBody } = await this.exchangeOnce(method, url, auth, body));
        // Told before the next request may go, so that it goes outside any window, even when given up on.
        if (exchange.status === 429) throttle.tooManyRequests(exchange.responseHeaders, throttledRetries);
        else throttle.answered(exchange.responseHeaders);
        gateway = this.fromFront(exchange);
        noAnswer = exchange.status === undefined && !isCertificateCode(exchange.errorCode);
        if (gateway || noAnswer) outage.missed(cameBack(exchange));
        else if (exchange.status !== undefined) outage.answered();
        // A 503's Retry-After holds every request (only a GET is sent again), never past the outage's budget.
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
      const left = outage.leftMs(budgetMs);
      // Only a GET may be sent twice blindly, a gateway's answer while the budget lasts, no answer at all a
      // few times (a closed port is told in seconds); an untrusted certificate will not be trusted a second later.
      const again =
        method === 'GET' &&
        !(this.options.resendTimedOutGets === false && ranOutOfTime(exchange, this.config.timeoutMs)) &&
        (gateway || transientRetries < MAX_TRANSIENT_RETRIES) &&
        (gateway || noAnswer ? left > 0 : exchange.bodyLimit?.kind === 'time');
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

  private async exchangeOnce(
    method: Method,
    url: string,
    auth: AuthMode,
    body?: string,
  ): Promise<{ exchange: Exchange; body?: unknown }> {
    // identity: the suite decodes no compression, so it asks for none rather than call a gzip body "not JSON".
    const headers: Record<string, string> = { accept: 'application/json', 'accept-encoding': 'identity' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (auth !== 'none') {
      const token = auth === 'valid' ? this.config.token : this.secrets.forged;
      headers[this.config.authHeader.toLowerCase()] =
        this.config.authScheme === '' ? token : `${this.config.authScheme} ${token}`;
    }
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
    // One deadline for headers and body: undici's time-outs are idle ones, which a trickling body resets.
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
        exchange.bodyLimit = describeBodyLimit(read.limit, { ...read, head: exchange.responseBody }, this.config);
      }
    } catch (error) {
      exchange.error = this.secrets.mask(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      exchange.errorCode = errorCodeOf(error);
    }
    exchange.durationMs = Math.round(performance.now() - started);
    return { exchange, body: answerBody };
  }

  /** The body as JSON, else what it is instead; nested too deep, a limit on the exchange. */
  private parseBody(text: string, exchange: Exchange): unknown {
    if (text.trim() === '') return undefined;
    try {
      return parseJson(text);
    } catch (error) {
      if (error instanceof JsonTooDeepError) {
        const facts = { head: exchange.responseBody, bytesRead: Buffer.byteLength(text) };
        exchange.bodyLimit = describeBodyLimit('depth', facts, this.config);
        return undefined;
      }
      // Described from the record, never from the raw text: a page may echo the credential.
      const type = exchange.responseHeaders['content-type'];
      exchange.notJson = describeNotJson(type, exchange.responseBody, (error as Error).message);
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

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
