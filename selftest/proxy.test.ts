// A CI job that reaches staging only through a forward proxy, tried through the CLI: the shop's host
// name resolves through the proxy alone (`staging.internal`), so a conformant verdict proves the run
// went through it, and the proxy's log shows that it did. NO_PROXY sends the run past it.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { bookingHooksForReference, configForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { ZonesClient } from '../helpers/client/zones-client.ts';
import { readTargetConfig } from '../helpers/config.ts';
import { formatExchange } from '../helpers/evidence/evidence.ts';
import { Ledger } from '../helpers/ownership/ledger.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { runEntry } from './run-node.ts';
import { type ForwardProxy, startForwardProxy } from './support/forward-proxy.ts';
import { samePathOn, startRedirectingFront } from './support/fronts.ts';

const HIDDEN_HOST = 'staging.internal';
const PROXY_PASSWORD = 'pr0xy-s3cret-pass';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const reportsDir = () => mkdtempSync(join(tmpdir(), 'zc-proxy-'));
const conformance = (env: Record<string, string>, args: string[] = []) => runEntry('bin/conformance.ts', args, env);

/** A reference, and the proxy that alone knows staging.internal stands for its 127.0.0.1. */
async function hiddenShop(
  credentials?: string,
): Promise<{ reference: RunningReference; proxy: ForwardProxy; settings: Record<string, string> }> {
  const reference = await startReference();
  closers.push(() => reference.close());
  const proxy = await startForwardProxy({ hosts: { [HIDDEN_HOST]: '127.0.0.1' }, credentials });
  closers.push(() => proxy.close());
  const hiddenUrl = `http://${HIDDEN_HOST}:${new URL(reference.url).port}`;
  // The booking hooks go to the reference itself, past any proxy, as a CI job's own tooling would.
  const settings = {
    ...settingsForStyle(reference.style, hiddenUrl, reference.token),
    ...bookingHooksForReference(reference.url),
    NO_PROXY: '127.0.0.1,localhost',
  };
  return { reference, proxy, settings };
}

/** The names of the zones this suite's runs made that the shop still holds, read past every front. */
async function zonesOf(reference: RunningReference): Promise<string[]> {
  const answer = await fetch(`${reference.url}/admin/api/2026-07/zones.json`, {
    headers: { [reference.style.authHeader]: reference.token },
  });
  const { zones } = (await answer.json()) as { zones: { name: string }[] };
  return zones.map((zone) => zone.name).filter((name) => name.startsWith('zc-'));
}

describe('a shop reachable only through a forward proxy', () => {
  /** A run through the proxy named in `variable`, checked to have gone through it and to have left nothing. */
  async function throughProxy(variable: string, args: string[] = [], extra: Record<string, string> = {}) {
    const { reference, proxy, settings } = await hiddenShop();
    const dir = reportsDir();
    const run = await conformance({ ...settings, ...extra, [variable]: proxy.url, ZONES_REPORTS_DIR: dir }, args);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(run.stdout.split('\n')[0], run.stderr).toBe(
      `zones-conformance: certifying http://${HIDDEN_HOST}:${new URL(reference.url).port} through the proxy ${proxy.url} (${variable})`,
    );
    expect(report.target.proxy).toBe(`${proxy.url} (${variable})`);
    // Absolute-form requests for the hidden host, writes included: the proxy carried the run.
    const collection = `http://${HIDDEN_HOST}:${new URL(reference.url).port}/admin/api/2026-07/zones.json`;
    expect(proxy.log).toContain(`GET ${collection}`);
    expect(proxy.log).toContain(`POST ${collection}`);
    expect(proxy.log.some((line) => line.startsWith('PUT '))).toBe(true);
    expect(proxy.log.some((line) => line.startsWith('DELETE '))).toBe(true);
    expect(proxy.log.length).toBe(report.requests.total);
    expect(await zonesOf(reference)).toEqual([]);
    return { run, report };
  }

  // Every rule's example tests, conformant. The model-based suite is left out: its client is built as
  // theirs is, so its hundred or so requests would take the same route and say nothing more about it.
  test('with HTTP_PROXY set, the run goes through the proxy and certifies the shop conformant', async () => {
    const { run, report } = await throughProxy('HTTP_PROXY', [], { ZONES_MODEL_RUNS: '0' });
    expect(run.code, run.stderr).toBe(0);
    expect(report.verdict).toBe('conformant');
  });

  // Which variable names the proxy decides only the route: one rule's example test (a create, an
  // update, a list read and a delete) between the preflight and the sweep shows it.
  test('with http_proxy set, the run goes through the proxy', async () => {
    const { run, report } = await throughProxy('http_proxy', ['--rule', 'UPDATE-01'], { ZONES_MODEL_RUNS: '0' });
    expect(report.rules.find((rule) => rule.id === 'UPDATE-01')?.status, run.stderr).toBe('passed');
    expect([report.verdict, run.code]).toEqual(['incomplete', 2]);
  });

  test('a proxy that wants credentials gets them from the proxy URL, and no output or report shows the password', async () => {
    const { proxy, settings } = await hiddenShop(`zc-user:${PROXY_PASSWORD}`);
    const dir = reportsDir();
    const withCredentials = proxy.url.replace('http://', `http://zc-user:${PROXY_PASSWORD}@`);
    // One rule's example test carries the credentials through as well as a whole run would.
    const run = await conformance(
      { ...settings, HTTP_PROXY: withCredentials, ZONES_REPORTS_DIR: dir, ZONES_MODEL_RUNS: '0' },
      ['--rule', 'CREATE-01'],
    );
    // A partial run: the rules left out are not verified.
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toContain(`through the proxy ${proxy.url} (credentials not shown) (HTTP_PROXY)`);
    expect(proxy.log.length).toBeGreaterThan(0);
    expect(run.stdout + run.stderr).not.toContain(PROXY_PASSWORD);
    for (const file of readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile())) {
      expect(readFileSync(join(file.parentPath, file.name), 'utf8').includes(PROXY_PASSWORD), file.name).toBe(false);
    }
  });

  test('a proxy refused for want of credentials: exit 3 naming the variable to put them in', async () => {
    const { proxy, settings } = await hiddenShop(`zc-user:${PROXY_PASSWORD}`);
    const run = await conformance({ ...settings, HTTP_PROXY: proxy.url, ZONES_REPORTS_DIR: reportsDir() });
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /cannot reach the target at http:\/\/staging\.internal:\d+\S* through the proxy http:\/\/127\.0\.0\.1:\d+ \(HTTP_PROXY\): .*407.*give them in HTTP_PROXY as http:\/\/user:password@host:port/,
    );
  });

  test('NO_PROXY naming the host sends the run past the proxy, where the name does not resolve: exit 3, and nothing reached the proxy', async () => {
    const { reference, proxy, settings } = await hiddenShop();
    // A leading dot names the domain and every host in it, as curl reads it.
    const run = await conformance({
      ...settings,
      HTTP_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1,.internal',
      ZONES_REPORTS_DIR: reportsDir(),
    });
    expect(run.code).toBe(3);
    expect(run.stdout).not.toContain('through the proxy');
    expect(run.stderr).toMatch(
      /cannot run: cannot reach the target at http:\/\/staging\.internal:\d+\/admin\/api\/2026-07\/zones\.json: .*staging\.internal/,
    );
    expect(proxy.log).toEqual([]);
    expect(await zonesOf(reference)).toEqual([]);
  });
});

describe('the client, in process', () => {
  const ledger = () => new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-proxy-client-')), 'run.jsonl'));

  test('the embedded reference is reached directly, whatever proxy the settings name', async () => {
    const { reference, proxy } = await hiddenShop();
    // A proxy that would refuse every request: the reference answering proves it was not asked.
    const config = {
      ...configForReference(readTargetConfig({}), reference),
      proxy: { url: 'http://127.0.0.1:9', variable: 'HTTP_PROXY' },
    };
    const list = await new ZonesClient(config, { ledger: ledger() }).listZones();
    expect(list.status).toBe(200);
    expect(proxy.log).toEqual([]);
  });

  test('through the proxy, a redirect comes back as the answer and is not followed', async () => {
    const { reference, proxy } = await hiddenShop();
    const elsewhere = await hiddenShop();
    const front = await startRedirectingFront(
      reference.url,
      'GET',
      307,
      samePathOn(`http://${HIDDEN_HOST}:${new URL(elsewhere.reference.url).port}`),
    );
    closers.push(() => front.close());
    const config = readTargetConfig({
      ZONES_BASE_URL: `http://${HIDDEN_HOST}:${front.port}`,
      ZONES_ACCESS_TOKEN: reference.token,
      HTTP_PROXY: proxy.url,
    });
    const list = await new ZonesClient(config, { ledger: ledger() }).listZones();
    expect(list.status).toBe(307);
    expect(formatExchange(list.exchange)).toContain(
      `Location: http://${HIDDEN_HOST}:${new URL(elsewhere.reference.url).port}/admin/api/2026-07/zones.json`,
    );
    expect(proxy.log).toEqual([`GET http://${HIDDEN_HOST}:${front.port}/admin/api/2026-07/zones.json`]);
    expect(front.log).toHaveLength(1);
  });
});
