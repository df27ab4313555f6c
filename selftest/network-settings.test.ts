// How the settings choose the way to the shop: which proxy variable applies and when NO_PROXY lets a
// host past it (as curl reads it), what makes ZONES_CA_FILE and ZONES_TLS_INSECURE usable, that no
// report shows a proxy's credentials, and which environment the booking hooks get.

import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { describeTarget, readTargetConfig, type TargetConfig } from '../helpers/config.ts';
import { bypassesProxy, proxyRouteFor } from '../helpers/connection/proxy.ts';
import { errorCodeOf, trustedCas } from '../helpers/connection/trust.ts';
import type { Exchange } from '../helpers/evidence/exchange.ts';
import { runBookingHook } from '../helpers/ownership/booking-hooks.ts';
import { unreachable } from '../helpers/runner/preflight.ts';
import { problemsOf } from './support/settings-problems.ts';
import { makeTestCa, type TestCa } from './support/test-certificates.ts';

const SHOP = { ZONES_BASE_URL: 'https://shop.example', ZONES_ACCESS_TOKEN: 'shpat_network_0123' };

describe('which proxy carries the requests', () => {
  test.for([
    ['https://shop.example', { HTTPS_PROXY: 'http://p:1' }, 'http://p:1', 'HTTPS_PROXY'],
    [
      'https://shop.example',
      { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' },
      'http://lower:1',
      'https_proxy',
    ],
    ['https://shop.example', { HTTP_PROXY: 'http://p:1' }, 'http://p:1', 'HTTP_PROXY'],
    [
      'http://shop.example',
      { http_proxy: 'http://lower:1', HTTP_PROXY: 'http://upper:1' },
      'http://lower:1',
      'http_proxy',
    ],
    ['http://shop.example', { HTTP_PROXY: 'proxy.corp:3128' }, 'http://proxy.corp:3128', 'HTTP_PROXY'],
    ['http://shop.example', { http_proxy: ' ', HTTP_PROXY: 'http://upper:1' }, 'http://upper:1', 'HTTP_PROXY'],
  ] as [string, Record<string, string>, string, string][])(
    '%s with %o goes through %s (%s)',
    ([target, env, url, variable]) => {
      expect(proxyRouteFor(new URL(target), env)).toEqual({ url, variable });
    },
  );

  test('an http:// shop does not take HTTPS_PROXY, and no variable means no proxy', () => {
    expect(proxyRouteFor(new URL('http://shop.example'), { HTTPS_PROXY: 'http://p:1' })).toBeUndefined();
    expect(proxyRouteFor(new URL('https://shop.example'), {})).toBeUndefined();
  });

  test.for([
    ['*', 'https://shop.example', true],
    ['shop.example', 'https://shop.example', true],
    ['example', 'https://shop.example', true],
    ['.example', 'https://shop.example', true],
    ['*.example', 'https://shop.example', true],
    ['SHOP.EXAMPLE', 'https://shop.example', true],
    ['op.example', 'https://shop.example', false],
    ['other.example, staging.internal', 'http://staging.internal:8080', true],
    ['other.example staging.internal', 'http://staging.internal:8080', true],
    ['staging.internal:8080', 'http://staging.internal:8080', true],
    ['staging.internal:9090', 'http://staging.internal:8080', false],
    ['shop.example:443', 'https://shop.example', true],
    ['127.0.0.1', 'http://127.0.0.1:3000', true],
    ['10.0.0.0/8', 'http://10.1.2.3', true],
    ['10.0.0.0/8', 'http://11.1.2.3', false],
    ['10.0.0.0/8', 'http://ten.example', false],
    ['::1', 'http://[::1]:3000', true],
    ['[::1]:3000', 'http://[::1]:3000', true],
    ['fd00::/8', 'http://[fd12::1]', true],
    ['127.0.0.1', 'http://localhost:3000', false],
  ] as [string, string, boolean][])('NO_PROXY=%s for %s: bypassed %s', ([noProxy, target, bypassed]) => {
    expect(bypassesProxy(noProxy, new URL(target))).toBe(bypassed);
  });

  test('NO_PROXY in either case lets the shop past the proxy', () => {
    expect(
      proxyRouteFor(new URL('https://shop.example'), { HTTPS_PROXY: 'http://p:1', NO_PROXY: 'shop.example' }),
    ).toBeUndefined();
    expect(
      proxyRouteFor(new URL('https://shop.example'), { HTTPS_PROXY: 'http://p:1', no_proxy: '.example' }),
    ).toBeUndefined();
  });
});

describe('the settings read the proxy for the shop, and only for a shop', () => {
  test('a shop behind HTTPS_PROXY', () => {
    expect(readTargetConfig({ ...SHOP, HTTPS_PROXY: 'http://proxy.corp:3128' }).proxy).toEqual({
      url: 'http://proxy.corp:3128',
      variable: 'HTTPS_PROXY',
    });
  });

  test('the embedded reference never', () => {
    expect(
      readTargetConfig({ HTTPS_PROXY: 'http://proxy.corp:3128', HTTP_PROXY: 'http://proxy.corp:3128' }).proxy,
    ).toBeUndefined();
  });

  test.for([
    [
      { HTTPS_PROXY: 'socks5://proxy.corp:1080' },
      'HTTPS_PROXY must be an http:// or https:// proxy (got socks5://proxy.corp:1080)',
    ],
    [{ HTTPS_PROXY: 'http://user:hunter2@[bad' }, 'HTTPS_PROXY is not a URL such as http://proxy.example:3128'],
  ] as [Record<string, string>, string][])('an unusable proxy for the shop is named: %o', ([env, problem]) => {
    expect(problemsOf({ ...SHOP, ...env })).toEqual([problem]);
  });

  test('a proxy excluded by NO_PROXY is not judged: it is not used', () => {
    expect(problemsOf({ ...SHOP, HTTPS_PROXY: 'socks5://proxy.corp:1080', NO_PROXY: 'shop.example' })).toEqual([]);
  });

  test('the report shows the proxy, but never its user or password', () => {
    const config = readTargetConfig({ ...SHOP, HTTPS_PROXY: 'http://ci-bot:hunter2@proxy.corp:3128' });
    const shown = JSON.stringify(describeTarget(config));
    expect(shown).toContain('"proxy":"http://proxy.corp:3128 (credentials not shown) (HTTPS_PROXY)"');
    expect(shown).not.toContain('hunter2');
    expect(shown).not.toContain('ci-bot');
  });
});

describe('ZONES_CA_FILE and ZONES_TLS_INSECURE', () => {
  let ca: TestCa;
  let dir: string;
  beforeAll(() => {
    ca = makeTestCa();
    dir = mkdtempSync(join(tmpdir(), 'zc-ca-file-'));
  });
  afterAll(() => {
    ca?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('a readable PEM with a certificate is taken, and trusted beside the usual roots', () => {
    expect(readTargetConfig({ ...SHOP, ZONES_CA_FILE: ca.caFile }).caFile).toBe(ca.caFile);
    const trusted = trustedCas(ca.caFile);
    expect(trusted).toContain(readFileSync(ca.caFile, 'utf8').trim());
    expect(trusted).toEqual(expect.arrayContaining([...rootCertificates]));
  });

  test('a file that cannot be read, or holds no certificate, is refused before any request', () => {
    const keyOnly = join(dir, 'key.pem');
    writeFileSync(
      keyOnly,
      generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    const garbled = join(dir, 'garbled.pem');
    writeFileSync(garbled, '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n');
    expect(problemsOf({ ...SHOP, ZONES_CA_FILE: join(dir, 'absent.pem') })).toEqual([
      `ZONES_CA_FILE cannot be read (ENOENT: ${join(dir, 'absent.pem')})`,
    ]);
    expect(problemsOf({ ...SHOP, ZONES_CA_FILE: keyOnly })).toEqual([
      `ZONES_CA_FILE holds no PEM certificate (no -----BEGIN CERTIFICATE----- block in ${keyOnly})`,
    ]);
    expect(problemsOf({ ...SHOP, ZONES_CA_FILE: garbled })).toEqual([
      `ZONES_CA_FILE holds a certificate block that is not a certificate (${garbled})`,
    ]);
  });

  test.for([
    [
      { ...SHOP, ZONES_TLS_INSECURE: 'yes' },
      'ZONES_TLS_INSECURE must be 1 (do not verify the shop\'s certificate) or 0 (got "yes")',
    ],
    [
      { ...SHOP, ZONES_BASE_URL: 'http://shop.example', ZONES_TLS_INSECURE: '1' },
      'ZONES_TLS_INSECURE applies only to an https:// ZONES_BASE_URL: over http:// there is no certificate to verify',
    ],
    [
      { ZONES_TLS_INSECURE: '1' },
      'ZONES_TLS_INSECURE is set but ZONES_BASE_URL is not: without it the run would certify the embedded reference, not your shop',
    ],
  ] as [Record<string, string>, string][])('%o is refused', ([env, problem]) => {
    expect(problemsOf(env)).toEqual([problem]);
  });

  test('ZONES_TLS_INSECURE=1 beside a CA file is refused: one of them would change nothing', () => {
    expect(problemsOf({ ...SHOP, ZONES_TLS_INSECURE: '1', ZONES_CA_FILE: ca.caFile })).toEqual([
      expect.stringMatching(/^ZONES_TLS_INSECURE and ZONES_CA_FILE contradict each other/),
    ]);
    expect(readTargetConfig({ ...SHOP, ZONES_TLS_INSECURE: '1' }).tlsInsecure).toBe(true);
    expect(readTargetConfig(SHOP).tlsInsecure).toBe(false);
  });

  test('a certificate error is found under the error undici wraps it in', () => {
    const wrapped = Object.assign(
      new Error('secure proxy connection failed', {
        cause: Object.assign(new Error('self-signed certificate'), { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
      }),
      { code: 'UND_ERR_PRX_TLS' },
    );
    expect(errorCodeOf(wrapped)).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(errorCodeOf(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe('ECONNREFUSED');
  });
});

describe('the booking hooks get the environment the suite has', () => {
  const saved = { ...process.env };
  afterAll(() => {
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'NO_PROXY']) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  async function proxySeenByHook(config: TargetConfig): Promise<string> {
    const out = join(mkdtempSync(join(tmpdir(), 'zc-hook-env-')), 'seen');
    await runBookingHook(
      config,
      `printf '%s|%s|%s' "$HTTPS_PROXY" "$https_proxy" "$NO_PROXY" > '${out}'`,
      { text: '7' },
      'ZONES_BOOKING_HOOK',
    );
    return readFileSync(out, 'utf8');
  }

  test("a shop's hooks inherit the proxy variables; the embedded reference's own hooks, on 127.0.0.1, get none", async () => {
    process.env.HTTPS_PROXY = 'http://proxy.corp:3128';
    process.env.https_proxy = 'http://proxy.corp:3128';
    process.env.NO_PROXY = 'internal.example';
    expect(await proxySeenByHook(readTargetConfig(SHOP))).toBe(
      'http://proxy.corp:3128|http://proxy.corp:3128|internal.example',
    );
    expect(await proxySeenByHook(readTargetConfig({}))).toBe('||');
  });
});

/** A GET that got no answer, failing as node's fetch reports it. */
function failedGet(url: string, error: string, errorCode: string): Exchange {
  const noAnswer = { requestHeaders: {}, responseHeaders: {}, responseBody: '', durationMs: 3 };
  return { method: 'GET', url, auth: 'valid', ...noAnswer, error, errorCode };
}

test('a closed port or an unknown host names ZONES_BASE_URL with its value, and asks whether the shop is up', () => {
  const config = readTargetConfig({ ZONES_BASE_URL: 'http://127.0.0.1:1', ZONES_ACCESS_TOKEN: 'shpat_gone_0123' });
  const url = 'http://127.0.0.1:1/admin/api/2026-07/zones.json';
  const refused = failedGet(url, 'Error: connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED');
  expect(unreachable(config, url, refused)).toBe(
    `cannot reach the target at ${url}: Error: connect ECONNREFUSED 127.0.0.1:1. Is the shop at ZONES_BASE_URL (http://127.0.0.1:1) up, and reachable from here?`,
  );
});

test('a certificate error behind an https:// proxy is put on the proxy, not the shop', () => {
  const failed = (url: string) =>
    failedGet(url, 'Error: self-signed certificate in certificate chain', 'SELF_SIGNED_CERT_IN_CHAIN');
  const overHttp = readTargetConfig({
    ZONES_BASE_URL: 'http://shop.example',
    ZONES_ACCESS_TOKEN: 'shpat_proxy_0123',
    HTTP_PROXY: 'https://proxy.example:8443',
  });
  expect(
    unreachable(
      overHttp,
      'http://shop.example/admin/api/2026-07/zones.json',
      failed('http://shop.example/admin/api/2026-07/zones.json'),
    ),
  ).toMatch(
    /^the proxy's TLS certificate is not accepted: .*through the proxy https:\/\/proxy\.example:8443\/? \(HTTP_PROXY\).*ZONES_CA_FILE or NODE_EXTRA_CA_CERTS/,
  );
  const overHttps = readTargetConfig({
    ZONES_BASE_URL: 'https://shop.example',
    ZONES_ACCESS_TOKEN: 'shpat_proxy_0123',
    HTTPS_PROXY: 'https://proxy.example:8443',
  });
  expect(
    unreachable(
      overHttps,
      'https://shop.example/admin/api/2026-07/zones.json',
      failed('https://shop.example/admin/api/2026-07/zones.json'),
    ),
  ).toMatch(/^the proxy's or the shop's TLS certificate/);
});
