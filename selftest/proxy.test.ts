// A CI job that reaches staging only through a forward proxy: the shop's host name resolves through the
// proxy alone (`staging.internal`), so a rule that passed proves the run went through it, and the
// proxy's log shows that it did. NO_PROXY sends the run past it. One run through the CLI; the other
// ways are the launcher's own code in this process (its preflight, its client, its certificate).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { bookingHooksForReference, configForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { readTargetConfig } from '../helpers/config.ts';
import { routeDescription } from '../helpers/connection/transport.ts';
import { formatExchange } from '../helpers/evidence/evidence.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { runEntry } from './run-node.ts';
import { filesUnder } from './support/files-under.ts';
import { type ForwardProxy, startForwardProxy } from './support/forward-proxy.ts';
import { samePathOn, startRedirectingFront } from './support/fronts.ts';
import { certificateFor, clientFor, configFrom, preflightRefusal, updateOneZone } from './support/net-in-process.ts';
import { suiteZonesOn } from './support/run-progress.ts';

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

/** Absolute-form requests for the hidden host, writes included, and every one of `sent`: the proxy carried them all. */
function expectCarried(proxy: ForwardProxy, reference: RunningReference, sent: number): void {
  const collection = `http://${HIDDEN_HOST}:${new URL(reference.url).port}/admin/api/2026-07/zones.json`;
  expect(proxy.log).toContain(`GET ${collection}`);
  expect(proxy.log).toContain(`POST ${collection}`);
  expect(proxy.log.some((line) => line.startsWith('PUT '))).toBe(true);
  expect(proxy.log.some((line) => line.startsWith('DELETE '))).toBe(true);
  expect(proxy.log.length).toBe(sent);
}

describe('a shop reachable only through a forward proxy', () => {
  // Through the CLI once: a run whose test (UPDATE-01's: a create, an update, a list read and a delete)
  // goes through a proxy that wants credentials, which come from the proxy URL and are never shown. The
  // other rules' requests would take the same route, from the one dispatcher the worker builds, and say
  // nothing more about it.
  test('with HTTP_PROXY set, the run goes through the proxy, with the credentials of its URL, and no output or report shows the password', async () => {
    const { reference, proxy, settings } = await hiddenShop(`zc-user:${PROXY_PASSWORD}`);
    const dir = reportsDir();
    const withCredentials = proxy.url.replace('http://', `http://zc-user:${PROXY_PASSWORD}@`);
    const run = await conformance(
      { ...settings, HTTP_PROXY: withCredentials, ZONES_REPORTS_DIR: dir, ZONES_MODEL_RUNS: '0' },
      ['--rule', 'UPDATE-01'],
    );
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
    expect(run.stdout.split('\n')[0], run.stderr).toBe(
      `zones-conformance: certifying http://${HIDDEN_HOST}:${new URL(reference.url).port} through the proxy ${proxy.url} (credentials not shown) (HTTP_PROXY)`,
    );
    expect(report.rules.find((rule) => rule.id === 'UPDATE-01')?.status, run.stderr).toBe('passed');
    // A partial run: the rules left out are not verified.
    expect([report.verdict, run.code]).toEqual(['incomplete', 2]);
    expect(report.target.proxy).toBe(`${proxy.url} (credentials not shown) (HTTP_PROXY)`);
    expectCarried(proxy, reference, report.requests.total);
    expect(await suiteZonesOn(reference)).toEqual([]);
    expect(run.stdout + run.stderr).not.toContain(PROXY_PASSWORD);
    for (const file of filesUnder(dir)) expect(readFileSync(file, 'utf8').includes(PROXY_PASSWORD), file).toBe(false);
  });

  // Which variable names the proxy decides only the route: the client a run builds from the settings
  // shows it, with the line the run starts with and the proxy its certificate names.
  test('with http_proxy set, the run goes through the proxy', async () => {
    const { reference, proxy, settings } = await hiddenShop();
    const config = configFrom({ ...settings, http_proxy: proxy.url });
    const { api, sent } = clientFor(config);
    expect(await updateOneZone(api, 'zc-proxy-lower-case')).toEqual([201, 200, 200, 200]);
    const hidden = `http://${HIDDEN_HOST}:${new URL(reference.url).port}`;
    expect(`certifying ${config.baseUrl}${routeDescription(config)}`).toBe(
      `certifying ${hidden} through the proxy ${proxy.url} (http_proxy)`,
    );
    expect(certificateFor(config).report.target.proxy).toBe(`${proxy.url} (http_proxy)`);
    expectCarried(proxy, reference, sent.length);
    expect(await suiteZonesOn(reference)).toEqual([]);
  });

  test('a proxy refused for want of credentials: the preflight stops naming the variable to put them in', async () => {
    const { proxy, settings } = await hiddenShop(`zc-user:${PROXY_PASSWORD}`);
    const reason = await preflightRefusal({ ...settings, HTTP_PROXY: proxy.url });
    expect(reason).toMatch(
      /^cannot reach the target at http:\/\/staging\.internal:\d+\S* through the proxy http:\/\/127\.0\.0\.1:\d+ \(HTTP_PROXY\): .*407.*give them in HTTP_PROXY as http:\/\/user:password@host:port/,
    );
    expect(reason).not.toContain('\n');
  });

  test('NO_PROXY naming the host sends the run past the proxy, where the name does not resolve: the preflight stops, and nothing reached the proxy', async () => {
    const { reference, proxy, settings } = await hiddenShop();
    // A leading dot names the domain and every host in it, as curl reads it.
    const excluded = { ...settings, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1,.internal' };
    expect(routeDescription(configFrom(excluded))).toBe('');
    expect(await preflightRefusal(excluded)).toMatch(
      /^cannot reach the target at http:\/\/staging\.internal:\d+\/admin\/api\/2026-07\/zones\.json: .*staging\.internal/,
    );
    expect(proxy.log).toEqual([]);
    expect(await suiteZonesOn(reference)).toEqual([]);
  });
});

describe('the client, in process', () => {
  test('the embedded reference is reached directly, whatever proxy the settings name', async () => {
    const { reference, proxy } = await hiddenShop();
    // A proxy that would refuse every request: the reference answering proves it was not asked.
    const config = {
      ...configForReference(readTargetConfig({}), reference),
      proxy: { url: 'http://127.0.0.1:9', variable: 'HTTP_PROXY' },
    };
    const list = await clientFor(config).api.listZones();
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
    const list = await clientFor(config).api.listZones();
    expect(list.status).toBe(307);
    expect(formatExchange(list.exchange)).toContain(
      `Location: http://${HIDDEN_HOST}:${new URL(elsewhere.reference.url).port}/admin/api/2026-07/zones.json`,
    );
    expect(proxy.log).toEqual([`GET http://${HIDDEN_HOST}:${front.port}/admin/api/2026-07/zones.json`]);
    expect(front.log).toHaveLength(1);
  });
});
