// A front for a reference on 127.0.0.1 that keeps one address while what stands behind it changes:
// the same shop night after night (a history is kept per address), with a release that broke a rule
// on the third night; and, given a rewrite, a shop whose answers carry what the test chooses (markup
// in a zone name or an error body), since the suite names its own zones and sends no markup itself.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, request } from 'node:http';
import { buffer } from 'node:stream/consumers';
import { listening, upstreamFailed } from './fronts.ts';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RewritingFront {
  url: string;
  /** Where requests go from now on, e.g. a reference started with a fault. */
  upstream: string;
  close(): Promise<void>;
}

function forward(upstream: string, req: IncomingMessage, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const onward = request(`${upstream}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      buffer(answer).then(
        (bytes) => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: bytes.toString('utf8') }),
        reject,
      );
    });
    onward.on('error', reject);
    onward.end(body);
  });
}

/** `rewrite` sees each whole answer and returns what the client gets; none: answers pass unchanged. */
export async function startRewritingFront(
  upstream: string,
  rewrite: (answer: Answer, request: { method: string; path: string }) => Answer = (answer) => answer,
): Promise<RewritingFront> {
  const front = { upstream };
  const server = createServer((req, res) => {
    buffer(req)
      .then((body) => forward(front.upstream, req, body))
      .then((answer) => {
        const shown = rewrite(answer, { method: req.method ?? '', path: req.url ?? '/' });
        // The body may have changed length, and is sent whole: no chunking, no stale length.
        const { 'content-length': _length, 'transfer-encoding': _chunked, ...headers } = shown.headers;
        res.writeHead(shown.status, { ...headers, 'content-length': Buffer.byteLength(shown.body) }).end(shown.body);
      })
      .catch(() => upstreamFailed(res));
  });
  const { url, close } = await listening(server, 'http');
  return {
    url,
    get upstream() {
      return front.upstream;
    },
    set upstream(next: string) {
      front.upstream = next;
    },
    close,
  };
}
