// A front for a reference on 127.0.0.1 that keeps one address while what stands behind it changes:
// the same shop night after night (a history is kept per address), with a release that broke a rule
// on the third night; and, given a rewrite, a shop whose answers carry what the test chooses (markup
// in a zone name or an error body), since the suite names its own zones and sends no markup itself.
// With racing writes, it answers updates as json-server does: each with the zone as it is when the
// answer goes, which for updates sent together is whichever landed last.
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
  /** With racing writes: the updates answered with another update's zone. */
  readonly racedAnswers: number;
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

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `rewrite` sees each whole answer and returns what the client gets; none: answers pass unchanged. */
export async function startRewritingFront(
  upstream: string,
  rewrite: (answer: Answer, request: { method: string; path: string }) => Answer = (answer) => answer,
  { racingWrites = false } = {},
): Promise<RewritingFront> {
  const front = { upstream, raced: 0 };
  /** The last update answer landed, by path: what a store that answers from its state shows at answer time. */
  const landed = new Map<string, Answer>();
  /** The updates of a path in flight together, and the promise that settles once the last of them has landed. */
  const inFlight = new Map<string, { count: number; allLanded: Promise<void>; settle: () => void }>();
  const raced = async (req: IncomingMessage, body: Buffer): Promise<Answer> => {
    if (!racingWrites || req.method !== 'PUT') return forward(front.upstream, req, body);
    const path = req.url ?? '';
    let group = inFlight.get(path);
    if (!group) {
      let settle = () => {};
      const allLanded = new Promise<void>((resolve) => (settle = resolve));
      group = { count: 0, allLanded, settle };
      inFlight.set(path, group);
    }
    group.count += 1;
    // Updates sent together land in an order of their own, and each is answered once all of its group have
    // landed. A group is the updates that reach the front before the last of them lands (a random pause of up
    // to 20 ms, then the forward): updates a loaded machine delivers further apart race in smaller groups or
    // not at all, which drift-cause's check that some answer did race then says.
    await pause(Math.random() * 20);
    const answer = await forward(front.upstream, req, body);
    landed.set(path, answer);
    group.count -= 1;
    if (group.count === 0) {
      inFlight.delete(path);
      group.settle();
    }
    await group.allLanded;
    const last = landed.get(path) ?? answer;
    if (last !== answer) front.raced += 1;
    return last;
  };
  const server = createServer((req, res) => {
    buffer(req)
      .then((body) => raced(req, body))
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
    get racedAnswers() {
      return front.raced;
    },
    close,
  };
}
