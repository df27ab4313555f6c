// ZONES_PAGE_SIZE: a shop that takes a page size is read in fewer pages, and one that refuses it stops
// the run in its preflight with exit 3 and one line naming both settings, before any zone is made.
// The shop is the reference behind the unruly proxy, which pages at 50 and takes `limit` up to 250
// as a Shopify-style shop does, or refuses it (refuseLimit).
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { ZonesClient } from '../helpers/client/zones-client.ts';
import { type Environment, readTargetConfig } from '../helpers/config.ts';
import { Ledger } from '../helpers/ownership/ledger.ts';
import { preflight } from '../helpers/runner/preflight.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { runEntry } from './run-node.ts';
import { listening } from './support/fronts.ts';
import { startUnrulyProxy, type UnrulyOptions, type UnrulyProxy } from './support/unruly-proxy.ts';

const LIST = '/admin/api/2026-07/zones.json';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The reference holding `planted` zones of others, behind the proxy paging its lists at 50. */
async function shopOf(planted: number, options: Partial<UnrulyOptions> = {}) {
  const reference = await startReference();
  closers.push(() => reference.close());
  for (let i = 0; i < planted; i += 1) reference.backdoor.plant({ name: `another-team-zone-${i}`, coverage: {} });
  const proxy = await startUnrulyProxy({ upstream: reference.url, pageSize: 50, ...options });
  closers.push(() => proxy.close());
  return { reference, proxy };
}

const settingsFor = (reference: RunningReference, proxy: UnrulyProxy, env: Environment = {}) => ({
  ...settingsForStyle(reference.style, proxy.url, reference.token),
  ...env,
});

function clientFor(reference: RunningReference, proxy: UnrulyProxy, env: Environment = {}): ZonesClient {
  const ledger = new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-page-size-')), 'run.jsonl'));
  return new ZonesClient(readTargetConfig(settingsFor(reference, proxy, env)), { ledger });
}

const listRequests = (proxy: UnrulyProxy) =>
  proxy.log.filter((entry) => entry.method === 'GET' && entry.url.startsWith(LIST)).map((entry) => entry.url);

test("1,000 zones of others and one of ours are read in 5 pages at ZONES_PAGE_SIZE=250, in 21 at the shop's 50", async () => {
  const { reference, proxy } = await shopOf(1000);
  const ours = await clientFor(reference, proxy).createZone({ name: 'zc-page-size-own', coverage: {} });
  expect(ours.status).toBe(201);

  const at250 = await clientFor(reference, proxy, { ZONES_PAGE_SIZE: '250' }).listZones();
  expect([at250.status, at250.pages.length, at250.read.ok && at250.read.zones.length]).toEqual([200, 5, 1001]);
  const asked = listRequests(proxy);
  expect(asked[0]).toBe(`${LIST}?limit=250`);
  // The first page asks for it; the shop's Links carry it on to every page after.
  expect(asked.every((url) => new URL(url, proxy.url).searchParams.get('limit') === '250')).toBe(true);

  const atShops = await clientFor(reference, proxy).listZones();
  expect([atShops.pages.length, atShops.read.ok && atShops.read.zones.length]).toEqual([21, 1001]);
  expect(listRequests(proxy)[5]).toBe(LIST);
});

test('a shop that refuses the page size: exit 3 before any zone is made, in one line naming both settings', async () => {
  const { reference, proxy } = await shopOf(0, { refuseLimit: true });
  const run = await runEntry('bin/conformance.ts', [], {
    ...settingsFor(reference, proxy, { ZONES_PAGE_SIZE: '250' }),
    ...bookingHooksForReference(reference.url),
    ZONES_REPORTS_DIR: mkdtempSync(join(tmpdir(), 'zc-page-size-')),
  });
  expect(run.code).toBe(3);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(
    /the shop refuses ZONES_PAGE_SIZE=250 sent as ZONES_PAGE_SIZE_PARAM=limit: GET \S+\?limit=250 answered 400 \(\{"errors":"limit is not a parameter of this list"\}\), and 200 without it/,
  );
  // Asked with the page size, once more without it, and nothing else.
  expect(proxy.log.map((entry) => `${entry.method} ${entry.url} ${entry.status}`)).toEqual([
    `GET ${LIST}?limit=250 400`,
    `GET ${LIST} 200`,
  ]);
});

test('a shop that refuses the list with or without the page size is not told its page size is at fault', async () => {
  const asked: string[] = [];
  const stub = createServer((req, res) => {
    asked.push(req.url ?? '');
    res.writeHead(400, { 'content-type': 'application/json' }).end('{"errors":"bad request"}');
  });
  const shop = await listening(stub, 'http');
  closers.push(shop.close);
  const config = readTargetConfig({ ZONES_BASE_URL: shop.url, ZONES_ACCESS_TOKEN: 't0k3n', ZONES_PAGE_SIZE: '250' });
  const ledger = new Ledger(join(mkdtempSync(join(tmpdir(), 'zc-page-size-')), 'run.jsonl'));
  // A list answered 400 is the rules' to judge (PATH-01 first), as without a page size.
  await preflight(new ZonesClient(config, { ledger, resendTimedOutGets: false }), { runId: 'zc-page-size-test' });
  expect(asked).toEqual([`${LIST}?limit=250`, LIST]);
});
