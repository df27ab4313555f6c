// A deliberately misbehaving front for a correct target. It injects what real staging shops do to a
// client (throttling, latency, dropped connections, paging, lagging lists) so self-tests can prove the
// suite copes with each. It listens on loopback only and forwards nowhere but the given upstream.
import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  request,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { cursorFor, type Envelope, offsetFrom, PAGE_PARAM, readList, writeList } from './list-pages.ts';
import { announceBucket, createTokenBucket, type RateLimit, type RateLimitHeaders } from './token-bucket.ts';

export type { RateLimitHeaders } from './token-bucket.ts';

export interface UnrulyOptions {
  /** Base URL of the real target, e.g. http://127.0.0.1:40001 (no trailing slash). */
  upstream: string;
  /** A token bucket over all requests. */
  rateLimit?: RateLimit;
  /** Announce the bucket's state in rate-limit headers, on 429s too. */
  rateLimitHeaders?: RateLimitHeaders;
  /** Added before each request is handled. */
  latencyMs?: number;
  /** The first N GETs of a zones.json list that get past the rate limit are dropped without an answer. */
  dropGets?: number;
  /**
   * Splits list answers into pages linked by rel="next": this many zones a page, or as many as the
   * request asks for in `limit`, up to 250, as a Shopify-style shop does. The links carry it on.
   */
  pageSize?: number;
  /** Answers 400 to a list request that carries `limit`, as a shop that knows no such parameter does. */
  refuseLimit?: boolean;
  /** For this long after a successful write, lists are answered as they were before it. */
  listLagMs?: number;
  /** How list bodies look: {"zones":[...]} or [...]. */
  envelope?: Envelope;
}

export interface ProxyLogEntry {
  method: string;
  url: string;
  /** Date.now() when the request arrived; entries are in the order the requests were answered. */
  at: number;
  status: number | 'dropped';
}

export interface UnrulyProxy {
  /** http://127.0.0.1:PORT */
  url: string;
  log: ProxyLogEntry[];
  /** Requests that arrived while a Retry-After window the proxy had announced was still open. */
  violations: number;
  /** How many 429s it sent. */
  throttled: number;
  dropped: number;
  /** List answers served from a stale snapshot. */
  laggedAnswers: number;
  /** List answers that carried a rel="next" Link. */
  pagedAnswers: number;
  /** Also closes keep-alive sockets, which would otherwise hold the close open. */
  close(): Promise<void>;
}

interface Answer {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer | string;
}

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** The page size a list request may ask for, and the most it gets, as Shopify's REST lists take it. */
const LIMIT_PARAM = 'limit';
const MAX_LIMIT = 250;

function endToEndHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const named = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((name) => name.trim());
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    // content-length is left out because this proxy rewrites bodies and recomputes it.
    if (value === undefined || HOP_BY_HOP.has(name) || named.includes(name) || name === 'content-length') continue;
    kept[name] = value;
  }
  return kept;
}

const json = (status: number, body: object, headers: OutgoingHttpHeaders = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  body: JSON.stringify(body),
});

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function splitTarget(target: string): { path: string; query: URLSearchParams } {
  // Split by hand: new URL() would read a path such as //host/x as a host name.
  const queryStart = target.indexOf('?');
  return {
    path: queryStart < 0 ? target : target.slice(0, queryStart),
    query: new URLSearchParams(queryStart < 0 ? '' : target.slice(queryStart + 1)),
  };
}

function parseUpstream(upstream: string): URL {
  const url = new URL(upstream);
  if (url.protocol !== 'http:') throw new Error(`unruly proxy: upstream must be an http: URL, got ${upstream}`);
  return url;
}

export async function startUnrulyProxy(options: UnrulyOptions): Promise<UnrulyProxy> {
  const upstream = parseUpstream(options.upstream);
  const prefix = upstream.pathname.replace(/\/$/, '');
  const envelope = options.envelope ?? 'wrapped';
  const bucket = options.rateLimit ? createTokenBucket(options.rateLimit) : undefined;
  // An agent of our own, so close() can end the upstream keep-alive sockets too.
  const agent = new Agent({ keepAlive: true });
  const counters = {
    log: [] as ProxyLogEntry[],
    violations: 0,
    throttled: 0,
    dropped: 0,
    laggedAnswers: 0,
    pagedAnswers: 0,
  };
  let proxyUrl = '';
  const latestLists = new Map<string, Answer>();
  let staleLists = new Map<string, Answer>();
  let staleUntil = 0;

  function forward(req: IncomingMessage, target: string, body: Buffer): Promise<Answer> {
    const headers = endToEndHeaders(req.headers);
    headers.host = upstream.host;
    // List bodies are rewritten, so they must arrive uncompressed.
    delete headers['accept-encoding'];
    if (body.length > 0 || req.headers['content-length'] !== undefined) headers['content-length'] = body.length;
    return new Promise((resolve, reject) => {
      const outgoing = request(
        {
          hostname: upstream.hostname.replace(/^\[|\]$/g, ''),
          port: upstream.port,
          method: req.method,
          path: prefix + target,
          headers,
          agent,
        },
        (res) => {
          readBody(res).then(
            (answer) => resolve({ status: res.statusCode ?? 502, headers: endToEndHeaders(res.headers), body: answer }),
            reject,
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  async function answerList(req: IncomingMessage, target: string): Promise<Answer> {
    const { path, query } = splitTarget(target);
    if (options.refuseLimit && query.has(LIMIT_PARAM))
      return json(400, { errors: `${LIMIT_PARAM} is not a parameter of this list` });
    const cursor = query.get(PAGE_PARAM);
    const offset = offsetFrom(cursor);
    if (offset === undefined) return json(400, { errors: `${PAGE_PARAM} is not a cursor this proxy gave out` });
    query.delete(PAGE_PARAM);
    // Only a proxy that pages takes a page size; one that does not passes it on like any parameter.
    const limit = options.pageSize ? query.get(LIMIT_PARAM) : null;
    if (limit !== null && !/^[1-9][0-9]{0,8}$/.test(limit))
      return json(400, { errors: `${LIMIT_PARAM} must be a whole number from 1 (got "${limit}")` });
    query.delete(LIMIT_PARAM);
    const pageSize = limit === null ? options.pageSize : Math.min(Number(limit), MAX_LIMIT);
    const rest = query.toString();
    const key = rest ? `${path}?${rest}` : path;
    // The upstream answers first, so it still decides who may read; only the content lags.
    let answer = await forward(req, cursor === null && limit === null ? target : key, Buffer.alloc(0));
    const stale = answer.status === 200 && Date.now() < staleUntil ? staleLists.get(key) : undefined;
    if (stale) {
      counters.laggedAnswers += 1;
      answer = stale;
    } else if (answer.status === 200) {
      latestLists.set(key, answer);
    }
    const list = answer.status === 200 && pageSize ? readList(answer.body.toString(), envelope) : undefined;
    if (!list || !pageSize) return answer;
    const end = offset + pageSize;
    const headers = { ...answer.headers };
    if (end < list.items.length) {
      if (limit !== null) query.set(LIMIT_PARAM, String(pageSize));
      query.set(PAGE_PARAM, cursorFor(end));
      headers.link = `<${proxyUrl}${path}?${query}>; rel="next"`;
      counters.pagedAnswers += 1;
    }
    return { status: 200, headers, body: writeList(list, list.items.slice(offset, end), envelope) };
  }

  async function answerWrite(req: IncomingMessage, target: string): Promise<Answer> {
    // Taken before forwarding, so a list fetched while the write is in flight cannot pass for "before".
    const before = new Map(latestLists);
    const answer = await forward(req, target, await readBody(req));
    if (options.listLagMs && answer.status >= 200 && answer.status < 300) {
      staleLists = before;
      staleUntil = Date.now() + options.listLagMs;
    }
    return answer;
  }

  async function answer(req: IncomingMessage): Promise<Answer | 'dropped'> {
    const target = req.url ?? '/';
    const method = req.method ?? 'GET';
    // An absolute-form target (GET http://elsewhere/ HTTP/1.1) is a forward-proxy request: not ours.
    if (!target.startsWith('/')) return json(400, { errors: 'only origin-form request targets are accepted' });
    if (options.latencyMs) await sleep(options.latencyMs);
    const admission = bucket?.admit() ?? { allowed: true };
    const announced =
      bucket && options.rateLimitHeaders
        ? announceBucket(options.rateLimitHeaders, bucket, options.rateLimit!.burst)
        : {};
    if (!admission.allowed) {
      counters.throttled += 1;
      if (admission.violation) counters.violations += 1;
      const perSecond = options.rateLimit?.perSecond;
      return json(
        429,
        {
          errors: `Exceeded ${perSecond} calls per second for api client. Reduce request rates to resume uninterrupted service.`,
        },
        { ...announced, 'retry-after': admission.retryAfter },
      );
    }
    const answered = await answerAdmitted(req, target, method);
    return answered === 'dropped' ? answered : { ...answered, headers: { ...answered.headers, ...announced } };
  }

  async function answerAdmitted(req: IncomingMessage, target: string, method: string): Promise<Answer | 'dropped'> {
    const isList = method === 'GET' && splitTarget(target).path.endsWith('/zones.json');
    if (isList && counters.dropped < (options.dropGets ?? 0)) {
      counters.dropped += 1;
      req.socket.destroy();
      return 'dropped';
    }
    if (isList) return answerList(req, target);
    if (WRITES.has(method)) return answerWrite(req, target);
    return forward(req, target, await readBody(req));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const entry: ProxyLogEntry = { method: req.method ?? '', url: req.url ?? '', at: Date.now(), status: 502 };
    try {
      const outcome = await answer(req).catch((error: unknown) =>
        json(502, {
          errors: `unruly proxy: upstream failed: ${error instanceof Error ? error.message : String(error)}`,
        }),
      );
      if (outcome === 'dropped') {
        entry.status = 'dropped';
        return;
      }
      entry.status = outcome.status;
      if (res.destroyed) return;
      res.writeHead(outcome.status, { ...outcome.headers, 'content-length': Buffer.byteLength(outcome.body) });
      res.end(outcome.body);
    } catch (error) {
      // Only a bug in this file lands here; the socket goes, the proxy stays up.
      console.error('unruly proxy: could not answer', error);
      res.destroy();
    } finally {
      counters.log.push(entry);
    }
  }

  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  proxyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // The same object the handlers count into, so the caller reads live numbers.
  return Object.assign(counters, {
    url: proxyUrl,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
        agent.destroy();
      }),
  });
}
