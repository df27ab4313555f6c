// The curl commands of the reports replay what the suite sent, run as a reader runs them: pasted
// into a real shell, with the token in ZONES_ACCESS_TOKEN. First against a server that records what
// arrives (every byte of a body with quotes, $, backticks, backslashes and a NUL byte in it; each
// kind of credential), then from conformance.md against the reference.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { settingsForStyle } from '../bin/reference-settings.ts';
import { OPERATOR_PREFIX } from '../helpers/drift/targets.ts';
import type { Exchange } from '../helpers/evidence/exchange.ts';
import { curlCommand, shellQuote } from '../helpers/evidence/replay.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { CHILD_LIMIT_MS, runEntry } from './run-node.ts';

const TOKEN = 'shpat_selftest_replay_0123456789abcdef';
const noCurl = spawnSync('sh', ['-c', 'command -v curl']).status !== 0;
const inShell = `curl commands run in bash${noCurl ? ' (skipped: no curl on this machine; apt-get install -y curl, as .ci/run does)' : ''}`;

/** A command as a reader runs it: bash, with the token in the environment (or not) and nothing else of ours. */
async function runInShell(
  command: string,
  withToken = true,
  more: Record<string, string> = {},
): Promise<{ status: number; out: string }> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...more };
  if (withToken) env.ZONES_ACCESS_TOKEN = TOKEN;
  // Not spawnSync: the servers the command talks to answer on this process's event loop.
  const child = spawn('bash', ['-c', command], { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: CHILD_LIMIT_MS });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, err).toBe(0);
  return { status: Number(out.match(/^HTTP\/[\d.]+ (\d{3})/)?.[1]), out };
}

test('a quoted word reaches the program exactly as it was, whatever it holds', () => {
  const awkward = `it's "quoted" $HOME \`id\` \\n back\\slash\nnew line; rm -rf / #`;
  const run = spawnSync('bash', ['-c', `printf %s ${shellQuote(awkward)}`], { encoding: 'utf8' });
  expect(run.stdout).toBe(awkward);
});

describe.skipIf(noCurl)(`${inShell}: against a server that records what arrives`, () => {
  interface Arrived {
    method: string;
    url: string;
    headers: IncomingHttpHeaders;
    body: Buffer;
  }
  const arrived: Arrived[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      arrived.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
    });
  });
  let base: string;

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const settings = { authHeader: 'X-Api-Key', authScheme: 'Bearer', tlsInsecure: false };
  function exchange(fields: Partial<Exchange>): Exchange {
    return {
      method: 'POST',
      url: `${base}/admin/api/2026-07/zones.json?status=draft&x=a%20b`,
      auth: 'valid',
      requestHeaders: { accept: 'application/json', 'accept-encoding': 'identity', 'x-api-key': '<redacted>' },
      responseHeaders: {},
      responseBody: '',
      durationMs: 1,
      ...fields,
    };
  }
  async function replay(recorded: Exchange, more: Record<string, string> = {}, prefix?: string): Promise<Arrived> {
    arrived.length = 0;
    const command = curlCommand(recorded, settings, undefined, prefix);
    expect(command).not.toContain(TOKEN);
    expect((await runInShell(command, true, more)).status).toBe(201);
    expect(arrived).toHaveLength(1);
    return arrived[0]!;
  }

  test('method, URL, headers and body arrive as the suite sent them, the token from the environment', async () => {
    const body = `{"zone":{"name":"it's \\"odd\\" $HOME \`id\` 100% \\\\ done\\n","coverage":{"x":[1,2]}}}`;
    const sent = await replay(
      exchange({
        method: 'PUT',
        requestHeaders: {
          accept: 'application/json',
          'accept-encoding': 'identity',
          'content-type': 'application/json',
          'x-api-key': '<redacted>',
        },
        requestBody: body,
      }),
    );
    expect(sent.method).toBe('PUT');
    expect(sent.url).toBe('/admin/api/2026-07/zones.json?status=draft&x=a%20b');
    expect(sent.headers).toMatchObject({
      accept: 'application/json',
      'accept-encoding': 'identity',
      'content-type': 'application/json',
      'x-api-key': `Bearer ${TOKEN}`,
    });
    expect(sent.body.toString('utf8')).toBe(body);
  });

  test('a body with a NUL byte, a % and a backslash still arrives byte for byte', async () => {
    const body = '{"name":"a\u0000b%s\\001"}';
    const sent = await replay(exchange({ requestBody: body }));
    expect(sent.body).toEqual(Buffer.from(body, 'utf8'));
  });

  test('a wrong credential is sent as one of the same length that is not the token; none is sent as none', async () => {
    const wrong = await replay(exchange({ method: 'GET', auth: 'wrong' }));
    const value = String(wrong.headers['x-api-key']);
    expect(value).toMatch(/^Bearer /);
    expect(value).not.toBe(`Bearer ${TOKEN}`);
    expect(value).toHaveLength(`Bearer ${TOKEN}`.length);
    const none = await replay(
      exchange({ method: 'DELETE', auth: 'none', requestHeaders: { accept: 'application/json' } }),
    );
    expect(none.method).toBe('DELETE');
    expect(none.headers['x-api-key']).toBeUndefined();
  });

  test("drift's mock run replays with the mock's token: in the operator's shell ZONES_ACCESS_TOKEN is the service's", async () => {
    // The drift launcher names the variables' prefix for each run (--target-variables); the mock's is ZONES_MOCK_.
    const mock = OPERATOR_PREFIX.mock;
    const mockToken = 'mock_token_for_replays_0123';
    const shell = { ZONES_MOCK_ACCESS_TOKEN: mockToken };
    const valid = await replay(exchange({ method: 'GET' }), shell, mock);
    expect(valid.headers['x-api-key']).toBe(`Bearer ${mockToken}`);
    const wrong = String((await replay(exchange({ method: 'GET', auth: 'wrong' }), shell, mock)).headers['x-api-key']);
    expect(wrong).toHaveLength(`Bearer ${mockToken}`.length);
    expect([`Bearer ${mockToken}`, `Bearer ${TOKEN}`]).not.toContain(wrong);
    expect(curlCommand(exchange({ method: 'GET' }), settings, undefined, mock)).not.toContain('ZONES_ACCESS_TOKEN"');
  });
});

describe.skipIf(noCurl)(`${inShell}: from conformance.md, against the reference`, () => {
  let reference: RunningReference;
  let markdown: string;

  beforeAll(async () => {
    reference = await startReference({ token: TOKEN, style: 'other-codes', fault: 'update-ignores-name' });
    const reportsDir = mkdtempSync(join(tmpdir(), 'zc-replay-'));
    // The example test's exchanges are what is replayed; the model-based suite is left out, as its
    // failing UPDATE-01 test would only add a shrunk sequence beside them.
    const run = await runEntry('bin/conformance.ts', ['--rule', 'UPDATE-01'], {
      ...settingsForStyle(reference.style, reference.url, TOKEN),
      ZONES_REPORTS_DIR: reportsDir,
      ZONES_MODEL_RUNS: '0',
    });
    expect(run.code, run.stderr).toBe(1);
    markdown = readFileSync(join(reportsDir, 'conformance.md'), 'utf8');
    expect(markdown).not.toContain(TOKEN);
  });
  afterAll(async () => {
    await reference?.close();
  });

  /** The curl command under the n-th exchange of UPDATE-01, and the status the run got. */
  function recorded(method: string): { curl: string; status: number } {
    const section = markdown.split('### UPDATE-01 FAILED (MUST)\n')[1]!;
    const item = section.split(/\n\d+\. `/).find((part) => part.startsWith(`${method} `))!;
    return {
      curl: item.match(/^ {3}(curl .*)$/m)![1]!,
      status: Number(item.match(/^\S+ \S+ \[valid\] -> (\d{3})`/)![1]),
    };
  }

  test('the list read answers as it did in the run, and only with the token from the environment', async () => {
    const list = recorded('GET');
    expect(list.status).toBe(200);
    expect((await runInShell(list.curl)).status).toBe(list.status);
    // Without the variable, the command has no credential to send: the token is not in it.
    expect((await runInShell(list.curl, false)).status).toBe(403);
  });

  test('the create makes a zone again, with the name it was sent; the zone is deleted after', async () => {
    const create = recorded('POST');
    const sentName = create.curl.match(/"name":"([^"]+)"/)![1]!;
    const made = await runInShell(create.curl);
    expect(made.status).toBe(create.status);
    const body = JSON.parse(made.out.slice(made.out.indexOf('\r\n\r\n') + 4)) as Record<string, Record<string, string>>;
    const id = body.zone![reference.style.idField]!;
    try {
      expect(reference.backdoor.stored(id)?.name).toBe(sentName);
    } finally {
      const url = `${reference.url}/admin/api/2026-07/zones/${encodeURIComponent(id)}.json`;
      const deleted = await fetch(url, { method: 'DELETE', headers: { [reference.style.authHeader]: TOKEN } });
      expect(deleted.ok).toBe(true);
    }
    expect(reference.backdoor.stored(id)).toBeUndefined();
  });
});
