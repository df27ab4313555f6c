// Fronts that real shops sit behind, for a reference on 127.0.0.1: a TLS terminator with a certificate
// of the test's choosing, a load balancer that sends every http:// request to https://, a shop that
// will not let its zones go, one that takes larger bodies than the reference, and a shop that goes
// down for maintenance and stays down.
import {
  createServer as createHttpServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { MAX_BODY_BYTES } from '../../reference/body.ts';
import type { ServerCertificate } from './test-certificates.ts';

export interface Front {
  /** e.g. https://127.0.0.1:PORT */
  url: string;
  port: number;
  /** `METHOD /path` of every request that reached the front. */
  log: string[];
  close(): Promise<void>;
}

/** Terminates TLS with `certificate` and passes every request on to the plain-http `upstream`. */
export function startTlsFront(upstream: string, certificate: ServerCertificate): Promise<Front> {
  const log: string[] = [];
  const server = createHttpsServer(certificate, (req, res) => {
    log.push(`${req.method} ${req.url}`);
    relay(upstream, req, res);
  });
  return listening(server, 'https', log);
}

/** Where a redirect sends a request, from the request's path and query. */
export type Relocation = (pathAndQuery: string) => string;

/** The same path and query on another origin, as an http:// to https:// redirect does. */
export const samePathOn =
  (origin: string): Relocation =>
  (pathAndQuery) =>
    `${origin}${pathAndQuery}`;

/** Answers every request with `status` and a Location, as a load balancer in front of a shop does. */
export function startRedirectFront(status: number, relocate: Relocation): Promise<Front> {
  const log: string[] = [];
  const server = createHttpServer((req, res) => {
    log.push(`${req.method} ${req.url}`);
    redirect(res, status, relocate(req.url ?? '/'));
  });
  return listening(server, 'http', log);
}

/** Passes everything on to `upstream` but answers requests of `method` with a redirect. */
export function startRedirectingFront(
  upstream: string,
  method: string,
  status: number,
  relocate: Relocation,
): Promise<Front> {
  const log: string[] = [];
  const server = createHttpServer((req, res) => {
    log.push(`${req.method} ${req.url}`);
    if (req.method === method) {
      req.resume();
      redirect(res, status, relocate(req.url ?? '/'));
    } else {
      relay(upstream, req, res);
    }
  });
  return listening(server, 'http', log);
}

/** A front that holds on to zones: it refuses their DELETEs, until the test lets them through. */
export interface DeleteRefusingFront extends Front {
  /** `DELETE /path` of every delete it refused. */
  refused: string[];
  /** From now on every DELETE goes on to the shop. */
  letDeletesThrough(): void;
}

/**
 * Passes everything on to `upstream` but answers DELETE with 409, as a shop does that locks a zone
 * (an order in flight, a replication lag), after letting the first `spare` DELETEs through: the
 * preflight's own delete must go, or the run stops before any test. A run behind it leaves zones.
 */
export function startDeleteRefusingFront(upstream: string, options: { spare: number }): Promise<DeleteRefusingFront> {
  const log: string[] = [];
  const refused: string[] = [];
  let spare = options.spare;
  let refusing = true;
  const server = createHttpServer((req, res) => {
    log.push(`${req.method} ${req.url}`);
    const refuse = req.method === 'DELETE' && refusing && spare === 0;
    if (req.method === 'DELETE' && spare > 0) spare -= 1;
    if (!refuse) return relay(upstream, req, res);
    refused.push(`${req.method} ${req.url}`);
    req.resume();
    res.writeHead(409, { 'content-type': 'application/json' }).end('{"errors":"zone is locked"}');
  });
  return listening(server, 'http', log).then((front) => ({
    ...front,
    refused,
    letDeletesThrough: () => {
      refusing = false;
    },
  }));
}

/**
 * A shop whose body limit is larger than the reference's (MAX_BODY_BYTES): a POST with a body past that
 * goes on with its JSON written again without whitespace, so the reference takes the 1 MiB create of
 * ROBUST-04, which is its fields padded with spaces, as such a shop would. Everything else goes on as sent.
 */
export function startLargeBodyFront(upstream: string): Promise<Front> {
  const log: string[] = [];
  const server = createHttpServer((req, res) => {
    log.push(`${req.method} ${req.url}`);
    if (req.method !== 'POST') return relay(upstream, req, res);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (body.length > MAX_BODY_BYTES) {
        try {
          body = Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8'))));
        } catch {
          // Not JSON: the reference refuses it as it is, as the larger shop would.
        }
      }
      const headers = { ...req.headers, 'content-length': String(body.length) };
      const onward = request(`${upstream}${req.url}`, { method: 'POST', headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      onward.on('error', () => upstreamFailed(res));
      onward.end(body);
    });
  });
  return listening(server, 'http', log);
}

/** A front whose shop has gone: it answers every request itself, as a gateway in maintenance does. */
export interface OutageFront extends Front {
  /** Requests it answered with its maintenance page rather than passing them on. */
  unavailable: string[];
}

/** What a maintenance front sends: a 503 with an HTML page, no JSON anywhere. */
export const MAINTENANCE_PAGE =
  '<!DOCTYPE html>\n<html lang="en">\n<head><title>Back soon</title></head>\n<body><h1>We are making the shop better</h1><p>Back in a few minutes.</p></body>\n</html>\n';

/**
 * Passes the first `after` requests on to `upstream`, then answers every one 503 with an HTML
 * maintenance page (and `retryAfter`, if given), for good: a shop that goes down and stays down.
 * With `status: 200` and a sign-in `page`, a single sign-on front that starts asking people to log in.
 */
export function startOutageFront(
  upstream: string,
  options: { after: number; retryAfter?: string; status?: number; page?: string },
): Promise<OutageFront> {
  const log: string[] = [];
  const unavailable: string[] = [];
  const server = createHttpServer((req, res) => {
    log.push(`${req.method} ${req.url}`);
    if (log.length <= options.after) return relay(upstream, req, res);
    unavailable.push(`${req.method} ${req.url}`);
    req.resume();
    const headers = { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' };
    res
      .writeHead(
        options.status ?? 503,
        options.retryAfter === undefined ? headers : { ...headers, 'retry-after': options.retryAfter },
      )
      .end(options.page ?? MAINTENANCE_PAGE);
  });
  return listening(server, 'http', log).then((front) => ({ ...front, unavailable }));
}

function redirect(res: ServerResponse, status: number, location: string): void {
  // With a small page, as load balancers send, so only the status and Location say it is a redirect.
  res.writeHead(status, { location, 'content-type': 'text/html' }).end(`<a href="${location}">moved</a>`);
}

function relay(upstream: string, req: IncomingMessage, res: ServerResponse): void {
  const onward = request(`${upstream}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  onward.on('error', () => upstreamFailed(res));
  req.pipe(onward);
}

/**
 * A front's answer when its upstream fails mid-request, most often by answering and hanging up before
 * it has read the whole body (the reference's 413 to a body over its limit). The client's connection
 * closes too, as a real front's would: kept open, it would still hold the unread rest of the body,
 * and the client's next request on it would wait for an answer that never comes.
 */
export function upstreamFailed(res: ServerResponse): void {
  if (res.headersSent) res.destroy();
  else res.writeHead(502, { connection: 'close' }).end();
}

/** A server of a self-test, listening on 127.0.0.1, with the close that ends its open connections too. */
export async function listening(
  server: Server | HttpsServer,
  scheme: 'http' | 'https',
  log: string[] = [],
): Promise<Front> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    port,
    log,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
