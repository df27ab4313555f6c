// Targets that answer badly, met through the CLI as a nightly job would meet them: a body that never
// ends, 300 MB of list, a body that trickles, JSON nested 100,000 deep, a gateway's sign-in page, and
// keys that name a prototype. Each run ends on its own, in a bounded process, with one line that says
// what came back and which limit or setting it met, and never with a stack trace. Each is decided in
// the preflight (exit 3), before any zone is made: the 300 MB one through the CLI, in a bounded heap,
// the others by the launcher's preflight in this process, whose reason is the line a run prints. A
// correct shop whose records carry "__proto__" members is certified as the correct shop it is.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { startReference } from '../reference/server.ts';
import { runEntry } from './run-node.ts';
import { listening, upstreamFailed } from './support/fronts.ts';
import { preflightRefusal } from './support/net-in-process.ts';

const TOKEN = 'shpat_bodies_0123456789abcdef';
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const reportsDir = () => mkdtempSync(join(tmpdir(), 'zc-bodies-'));

interface Target {
  url: string;
  /** "GET /path" for every request it got. */
  requests: string[];
  /** Body bytes it managed to write. */
  sent: () => number;
}

type Answer = (res: ServerResponse, count: (bytes: number) => void) => void;

/** A target of the test's own on 127.0.0.1 that gives every request the same kind of answer. */
async function target(answer: Answer): Promise<Target> {
  const requests: string[] = [];
  let sent = 0;
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    answer(res, (bytes) => (sent += bytes));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, sent: () => sent };
}

/** Writes chunks while the client takes them, until `total` bytes or the connection ends; none is held. */
function stream(res: ServerResponse, count: (bytes: number) => void, total = Infinity): void {
  const record = Buffer.from('{"id":1,"name":"zone","coverage":{"countries":["DE"]},"status":"draft"},'.repeat(1000));
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{"zones":[');
  let left = total;
  const pump = () => {
    while (!res.destroyed && left > record.length) {
      left -= record.length;
      count(record.length);
      if (!res.write(record)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end('{"id":2}]}');
  };
  pump();
}

const json = (res: ServerResponse, text: string) =>
  res.writeHead(200, { 'content-type': 'application/json' }).end(text);

const SIGN_IN_PAGE =
  '<!DOCTYPE html>\n<html lang="en">\n<head><title>Sign in to Example SSO</title></head>\n<body><form method="post" action="/login">...</form></body>\n</html>\n';

/** The one line a run prints: no stack trace, no sign of a parser or a heap that gave way. */
function expectOneLineWithoutStack(output: string): void {
  expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
  expect(output).not.toMatch(/RangeError|Maximum call stack|heap out of memory/);
}

/** Asked once, and nothing written: a GET past a limit is not sent again, and no zone was made. */
function expectAskedOnceAndCut(shop: Target): void {
  expect(shop.requests).toEqual(['GET /admin/api/2026-07/zones.json']);
  // The rest of an endless or huge body was never fetched; socket buffers took what was written.
  expect(shop.sent()).toBeLessThan(64 * 1024 * 1024);
}

const settingsFor = (shop: Target, env: Record<string, string> = {}) => ({
  ZONES_BASE_URL: shop.url,
  ZONES_ACCESS_TOKEN: TOKEN,
  ZONES_REPORTS_DIR: reportsDir(),
  ...env,
});

// The launcher's preflight, in this process: the reason it gives is the line a run prints before exit 3.
const cases: { label: string; answer: Answer; env?: Record<string, string>; message: RegExp }[] = [
  {
    label: 'a body that never ends is cut at ZONES_MAX_BODY_BYTES',
    answer: (res, count) => stream(res, count),
    env: { ZONES_MAX_BODY_BYTES: '1048576' },
    message:
      /^GET http:\S+zones\.json answered 200 \(application\/json\), but its body ran past ZONES_MAX_BODY_BYTES=1048576 bytes, so the suite stopped reading it \(it began "\{"zones":\[\{"id":1,"name":"zone",.*raise ZONES_MAX_BODY_BYTES/,
  },
  {
    label: 'a body that trickles one byte a second is cut at ZONES_TIMEOUT_MS',
    answer: (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"zones":[');
      const drip = setInterval(() => res.write(' '), 1000);
      res.on('close', () => clearInterval(drip));
    },
    env: { ZONES_TIMEOUT_MS: '2500' },
    message:
      /^GET http:\S+zones\.json answered 200 \(application\/json\), but its body was still coming when the time limit ZONES_TIMEOUT_MS=2500 ran out \(\d+ bytes by then; it began "\{"zones":\["\)/,
  },
  {
    label: 'JSON nested 100,000 deep is refused unread',
    answer: (res) => json(res, `{"zones":${'['.repeat(100_000)}${']'.repeat(100_000)}}`),
    message:
      /answered 200 \(application\/json\), but its body is JSON nested deeper than 256 levels, which the suite does not read \(it began "\{"zones":\[\[\[/,
  },
  {
    label: 'an SSO sign-in page is named as HTML, not blamed on the envelope settings',
    answer: (res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(SIGN_IN_PAGE),
    message:
      /^GET http:\S+zones\.json answered 200, but the body is HTML, not JSON \(text\/html; charset=utf-8\), beginning "<!DOCTYPE html> <html lang="en"> <head><title>Sign in to Example SSO.*": a sign-in page\?.*check ZONES_BASE_URL/,
  },
  {
    label: 'records whose ids sit only under "__proto__" have no id, and their members are named',
    answer: (res) => json(res, '{"zones":[{"__proto__":{"id":1},"name":"a"}]}'),
    message:
      /cannot be read with ZONES_ENVELOPE=wrapped, ZONES_LIST_KEY=zones and ZONES_ID_FIELD=id: list item 0: the record has no usable "id" \(got "undefined"\); its records have the fields __proto__, name$/,
  },
];

describe('a target that answers badly stops the run in its preflight: exit 3, one line saying what came back', () => {
  // Through the CLI: the process is bounded (with the heap held to 192 MiB, reading the whole 300 MB
  // would end the run out of memory) and says it in one line, without a stack trace.
  test('a 300 MB list is cut at the default 8 MiB, in a process held to a 192 MiB heap', async () => {
    const shop = await target((res, count) => stream(res, count, 300 * 1024 * 1024));
    const run = await runEntry('bin/conformance.ts', [], {
      ...settingsFor(shop),
      NODE_OPTIONS: '--max-old-space-size=192',
    });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/^zones-conformance: cannot run: /);
    for (const output of [run.stdout, run.stderr]) expectOneLineWithoutStack(output);
    expect(run.stderr.trim()).toMatch(
      /answered 200 \(application\/json\), but its body ran past ZONES_MAX_BODY_BYTES=8388608 bytes/,
    );
    expectAskedOnceAndCut(shop);
  });

  for (const { label, answer, env, message } of cases) {
    test(label, async () => {
      const shop = await target(answer);
      const reason = await preflightRefusal(settingsFor(shop, env));
      expect(reason).not.toContain('\n');
      expectOneLineWithoutStack(reason);
      expect(reason).toMatch(message);
      expectAskedOnceAndCut(shop);
    });
  }
});

test('past the preflight, a list answer past a limit leaves its checks not verified, naming the limit; no rule fails on it', async () => {
  const reference = await startReference({ token: TOKEN });
  closers.push(() => reference.close());
  // Filtered lists only: the preflight reads the plain list, so the run gets as far as the tests.
  const front = await frontWith(reference.url, (url, res) => {
    if (!url.searchParams.has(reference.style.statusParam)) return false;
    stream(res, () => {});
    return true;
  });
  const dir = reportsDir();
  const run = await runEntry('bin/conformance.ts', [], {
    ...settingsForStyle(reference.style, front.url, TOKEN),
    ...bookingHooksForReference(reference.url),
    ZONES_MAX_BODY_BYTES: '65536',
    ZONES_REPORTS_DIR: dir,
  });
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  const listFilter = report.rules.find((rule) => rule.id === 'LIST-02')!;
  expect(listFilter).toMatchObject({
    status: 'not-verified',
    reason: expect.stringMatching(
      /^no readable answer to check against: GET http:\S+\?status=\w+ answered 200 \(application\/json\), but its body ran past ZONES_MAX_BODY_BYTES=65536 bytes/,
    ),
  });
  expect(
    report.rules.filter((rule) => rule.level === 'must' && rule.status === 'failed').map((rule) => rule.id),
  ).toEqual([]);
  expect([report.verdict, run.code]).toEqual(['incomplete', 2]);
  expect(report.cleanup.leftBehind).toEqual([]);
  for (const output of [run.stdout, run.stderr]) expect(output).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
});

test('a correct shop whose records carry "__proto__" and "constructor" members is certified conformant', async () => {
  const reference = await startReference({ token: TOKEN });
  closers.push(() => reference.close());
  const front = await prototypeKeysFront(reference.url);
  const dir = reportsDir();
  const run = await runEntry('bin/conformance.ts', [], {
    ...settingsForStyle(reference.style, front.url, TOKEN),
    ...bookingHooksForReference(reference.url),
    ZONES_REPORTS_DIR: dir,
  });
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  expect(front.rewritten(), 'no record was given the members: the test proves nothing').toBeGreaterThan(10);
  expect(
    report.rules
      .filter((rule) => rule.level === 'must' && rule.status !== 'passed')
      .map((rule) => `${rule.id}: ${rule.reason}`),
  ).toEqual([]);
  expect([report.verdict, run.code]).toEqual(['conformant', 0]);
  expect(report.cleanup.leftBehind).toEqual([]);
});

/** A front for the reference: passes every request on, except those `answer` answers itself. */
async function frontWith(
  upstream: string,
  answer: (url: URL, res: ServerResponse) => boolean,
  rewrite: (body: unknown) => unknown = (body) => body,
): Promise<{ url: string }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (answer(new URL(req.url ?? '/', 'http://front'), res)) return;
    const onward = request(`${upstream}${req.url}`, { method: req.method, headers: req.headers }, (upstreamAnswer) => {
      const chunks: Buffer[] = [];
      upstreamAnswer.on('data', (chunk: Buffer) => chunks.push(chunk));
      upstreamAnswer.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        const isJson = /json/.test(upstreamAnswer.headers['content-type'] ?? '') && text !== '';
        const body = isJson ? JSON.stringify(rewrite(JSON.parse(text))) : text;
        const { 'content-length': _length, ...headers } = upstreamAnswer.headers;
        res.writeHead(upstreamAnswer.statusCode ?? 502, headers).end(body);
      });
    });
    onward.on('error', () => upstreamFailed(res));
    req.pipe(onward);
  });
  const front = await listening(server, 'http');
  closers.push(front.close);
  return { url: front.url };
}

/**
 * A front for the reference that adds to every zone record it passes back a "__proto__" member that
 * claims other values, and a "constructor" member shaped like a prototype pollution.
 */
async function prototypeKeysFront(upstream: string): Promise<{ url: string; rewritten: () => number }> {
  let rewritten = 0;
  const withHostileMembers = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(withHostileMembers);
    if (value === null || typeof value !== 'object') return value;
    const object = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withHostileMembers(item)]));
    if (!Object.hasOwn(object, 'id') || !Object.hasOwn(object, 'name')) return object;
    rewritten += 1;
    return Object.fromEntries([
      ...Object.entries(object),
      ['__proto__', { id: 'not-its-id', status: 'published', polluted: true }],
      ['constructor', { prototype: { polluted: true } }],
    ]);
  };
  const front = await frontWith(upstream, () => false, withHostileMembers);
  return { url: front.url, rewritten: () => rewritten };
}
