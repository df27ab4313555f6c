// A front for the reference in its default style that makes it a lax shop, one habit at a time:
// each habit is something real servers do that a robustness probe (ROBUST-01..07) should notice. The
// MUST rules are not its business; a self-test runs the probes against it and reads the warnings.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LaxHabit =
  /** Takes JSON with a trailing comma or missing closing braces, as a lenient parser does. */
  | 'lenient-json'
  /** Takes a name that is a number or a list, as text; a missing body becomes a zone of its own. */
  | 'coerces-names'
  /** Takes an empty name, stores the zone under a placeholder it shows as "", and answers 201 with no body. */
  | 'empty-name-stored-quietly'
  /** Answers 200 where the reference says an id is unknown. */
  | 'unknown-id-succeeds'
  /** Takes any body size: a large one is compacted before it reaches the reference's limit. */
  | 'no-size-limit'
  /** Answers 500 to a list filtered by a status it does not know. */
  | 'unknown-filter-fails'
  /** Stores names as ASCII: every other character becomes "?". */
  | 'ascii-names'
  /** Keeps only the first update's coverage of a zone, so later updates land half. */
  | 'first-coverage-sticks';

export interface LaxFront {
  url: string;
  close(): Promise<void>;
}

const COLLECTION = '/admin/api/2026-07/zones.json';
const ZONE_PATH = /^\/admin\/api\/2026-07\/zones\/([^/]+)\.json$/;
/** The name the front stores for an empty one, and shows as "" again in lists. */
export const NAMELESS_PLACEHOLDER = 'zc-lax-nameless';
const KNOWN_STATUSES = new Set(['draft', 'published']);

type ZoneBody = { zone?: Record<string, unknown> };

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A lenient parser's reading: trailing commas dropped, missing closing braces added. */
function lenientParse(text: string): unknown {
  const withoutTrailingCommas = text.replace(/,\s*([}\]])/g, '$1');
  const open = [...withoutTrailingCommas].filter((c) => c === '{').length;
  const closed = [...withoutTrailingCommas].filter((c) => c === '}').length;
  return JSON.parse(withoutTrailingCommas + '}'.repeat(Math.max(0, open - closed)));
}

/** The body as the front reads it; undefined when even its habits can't read it, so it goes on as it came. */
function parseRequest(text: string, habits: ReadonlySet<LaxHabit>): ZoneBody | undefined {
  for (const read of [JSON.parse, ...(habits.has('lenient-json') ? [lenientParse] : [])]) {
    try {
      return read(text) as ZoneBody;
    } catch {
      // the next reading, if the front has one
    }
  }
  return undefined;
}

const CREATE_HABITS: readonly LaxHabit[] = [
  'lenient-json',
  'coerces-names',
  'empty-name-stored-quietly',
  'ascii-names',
  'no-size-limit',
];
const NOT_PASSED_ON = new Set(['host', 'connection', 'content-length', 'transfer-encoding']);

export function startLaxFront(upstream: string, habits: ReadonlySet<LaxHabit>): Promise<LaxFront> {
  const coverageSeen = new Set<string>();
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: String(error) }));
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://front');
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    let text = raw.toString('utf8');
    let quietCreate = false;
    const zoneId = ZONE_PATH.exec(url.pathname)?.[1];

    if (method === 'GET' && url.pathname === COLLECTION && habits.has('unknown-filter-fails')) {
      const status = url.searchParams.get('status');
      if (status !== null && !KNOWN_STATUSES.has(status)) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"errors":"internal error"}');
        return;
      }
    }
    if (method === 'POST' && url.pathname === COLLECTION && CREATE_HABITS.some((habit) => habits.has(habit))) {
      if (text === '' && habits.has('coerces-names')) text = '{"zone":{"name":"zc-lax-bodiless","coverage":{}}}';
      // Past the reference's own limit a body is compacted only by a front that takes any size.
      const body = raw.length > 64 * 1024 && !habits.has('no-size-limit') ? undefined : parseRequest(text, habits);
      if (body !== undefined) {
        const fields = body.zone ?? {};
        if (habits.has('coerces-names') && typeof fields.name === 'number') fields.name = String(fields.name);
        if (habits.has('coerces-names') && Array.isArray(fields.name)) fields.name = fields.name.join(' ');
        if (habits.has('empty-name-stored-quietly') && fields.name === '') {
          fields.name = NAMELESS_PLACEHOLDER;
          quietCreate = true;
        }
        if (habits.has('ascii-names') && typeof fields.name === 'string') fields.name = asAscii(fields.name);
        text = JSON.stringify(body);
      }
    }
    const update = method === 'PUT' && zoneId !== undefined ? parseRequest(text, new Set()) : undefined;
    if (update !== undefined) {
      const fields = update.zone ?? {};
      if (habits.has('ascii-names') && typeof fields.name === 'string') fields.name = asAscii(fields.name);
      if (habits.has('first-coverage-sticks') && 'coverage' in fields) {
        if (coverageSeen.has(zoneId!)) delete fields.coverage;
        coverageSeen.add(zoneId!);
      }
      text = JSON.stringify(update);
    }

    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string' && !NOT_PASSED_ON.has(entry[0]),
      ),
    );
    const answer = await fetch(`${upstream}${req.url}`, {
      method,
      headers,
      body: method === 'GET' || method === 'DELETE' || text === '' ? undefined : text,
    });
    let answerText = await answer.text();
    let status = answer.status;
    if (quietCreate && status === 201) answerText = '';
    if (zoneId !== undefined && status === 404 && habits.has('unknown-id-succeeds')) {
      status = 200;
      answerText = '{}';
    }
    if (method === 'GET' && url.pathname === COLLECTION && status === 200)
      answerText = answerText.replaceAll(`"name":"${NAMELESS_PLACEHOLDER}"`, '"name":""');
    const type = answer.headers.get('content-type');
    res.writeHead(status, type === null || answerText === '' ? {} : { 'content-type': type }).end(answerText);
  }

  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

function asAscii(text: string): string {
  return [...text].map((c) => (c.charCodeAt(0) < 128 ? c : '?')).join('');
}
