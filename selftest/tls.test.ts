// A shop behind TLS signed by a private CA. The CA and the server certificates are made when the tests
// start and removed when they end. A certificate the suite does not trust stops the run (exit 3) naming
// the settings that fix it; with the CA given either way, the run works; with verification switched
// off, it works and says so on every run and on the certificate.
// Through the CLI: one refusal (exit 3, its one line and its report); one run whose test reaches the
// shop over verified TLS (UPDATE-01's example test, from the worker as from the launcher's preflight);
// the warning ZONES_TLS_INSECURE=1 prints; and the two ways of trusting the CA that only Node's start
// can take (NODE_EXTRA_CA_CERTS), each shown by an answer that came back over the verified connection.
// The rest is the launcher's own code in this process: the preflight a run starts with, and the
// requests of UPDATE-01's example test through the client and connection a run builds from the same
// settings.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { insecureWarning, routeDescription } from '../helpers/connection/transport.ts';
import type { ConformanceJson, ConformanceReport } from '../helpers/report/certificate.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type ChildRun, runEntry } from './run-node.ts';
import { type ForwardProxy, startForwardProxy } from './support/forward-proxy.ts';
import { type Front, startTlsFront } from './support/fronts.ts';
import { certificateFor, clientFor, configFrom, preflightRefusal, updateOneZone } from './support/net-in-process.ts';
import { suiteZonesOn } from './support/run-progress.ts';
import { makeTestCa, type TestCa } from './support/test-certificates.ts';

const reportsDir = () => mkdtempSync(join(tmpdir(), 'zc-tls-'));
const conformance = (env: Record<string, string>, args: string[] = []) => runEntry('bin/conformance.ts', args, env);

let ca: TestCa;
let strangerCa: TestCa;
let reference: RunningReference;
/** Certified for 127.0.0.1 and staging.internal by `ca`. */
let front: Front;
/** Certified by `ca` too, but for another host name only. */
let misnamed: Front;
let proxy: ForwardProxy;

beforeAll(async () => {
  ca = makeTestCa('private CA');
  strangerCa = makeTestCa('some other CA');
  reference = await startReference();
  front = await startTlsFront(reference.url, ca.issue(['IP:127.0.0.1', 'DNS:staging.internal']));
  misnamed = await startTlsFront(reference.url, ca.issue(['DNS:shop.example']));
  proxy = await startForwardProxy({ hosts: { 'staging.internal': '127.0.0.1' } });
});

afterAll(async () => {
  await Promise.all([front?.close(), misnamed?.close(), proxy?.close(), reference?.close()]);
  ca?.remove();
  strangerCa?.remove();
});

/** The reference's settings, at the given https:// address; hooks book zones on the reference directly. */
function settingsAt(url: string, dir = reportsDir()): Record<string, string> {
  return {
    ...settingsForStyle(reference.style, url, reference.token),
    ...bookingHooksForReference(reference.url),
    ZONES_REPORTS_DIR: dir,
  };
}

function reportIn(dir: string): ConformanceJson {
  return JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceJson;
}

/**
 * A child whose token the shop refuses: its preflight stops at the first answer, so an answer that came
 * back at all, and no complaint about the certificate, shows the handshake was verified and passed.
 */
async function answeredOverTls(extra: Record<string, string>): Promise<ChildRun> {
  const asked = front.log.length;
  const run = await conformance({
    ...settingsAt(front.url),
    ZONES_ACCESS_TOKEN: 'shpat_not_the_reference_token',
    ...extra,
  });
  expect(run.code, run.stderr).toBe(3);
  expect(run.stderr).not.toMatch(/certificate|warning/i);
  expect(run.stderr).toMatch(
    /cannot run: the target rejects the access token \(GET https:\/\/127\.0\.0\.1:\d+\/admin\/api\/2026-07\/zones\.json answered 401\)/,
  );
  expect(front.log.slice(asked)).toEqual(['GET /admin/api/2026-07/zones.json']);
  return run;
}

describe('a certificate the suite does not trust stops the run before any zone is made', () => {
  test('signed by a private CA nobody named: exit 3 naming ZONES_CA_FILE and NODE_EXTRA_CA_CERTS', async () => {
    const dir = reportsDir();
    const run = await conformance(settingsAt(front.url, dir));
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /cannot run: the target's TLS certificate is not accepted: GET https:\/\/127\.0\.0\.1:\d+\/admin\/api\/2026-07\/zones\.json failed with UNABLE_TO_VERIFY_LEAF_SIGNATURE .*: the certificate is signed by a CA this machine does not trust: give that CA in ZONES_CA_FILE \(a PEM file\) or NODE_EXTRA_CA_CERTS/,
    );
    expect(reportIn(dir)).toMatchObject({ verdict: 'could-not-run', reason: expect.stringContaining('ZONES_CA_FILE') });
    expect(front.log, 'no request got past the handshake').toEqual([]);
    expect(await suiteZonesOn(reference)).toEqual([]);
  });

  test('ZONES_CA_FILE holding another CA: the preflight stops, saying the file does not hold the one that signed it', async () => {
    const reason = await preflightRefusal({ ...settingsAt(front.url), ZONES_CA_FILE: strangerCa.caFile });
    expect(reason).toMatch(/^the target's TLS certificate is not accepted: .*UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
    expect(reason).toContain(`ZONES_CA_FILE=${strangerCa.caFile} does not hold it`);
    expect(front.log).toEqual([]);
  });

  test('made out to another host name: the preflight stops naming the host name mismatch, ZONES_BASE_URL, and both CA settings', async () => {
    const reason = await preflightRefusal({ ...settingsAt(misnamed.url), ZONES_CA_FILE: ca.caFile });
    expect(reason).toMatch(
      /failed with ERR_TLS_CERT_ALTNAME_INVALID .*another host name, so ZONES_BASE_URL must use a name it lists; a CA in ZONES_CA_FILE \(a PEM file\) or NODE_EXTRA_CA_CERTS cannot change that/,
    );
    expect(misnamed.log).toEqual([]);
  });
});

describe('with the private CA given, the run works', () => {
  // One rule's example test (a create, an update, a list read and a delete) in the worker: every rule's
  // requests go out through the one connection the worker builds from ZONES_CA_FILE, so the others
  // would cross the same handshake and say nothing more about it.
  test('in ZONES_CA_FILE: a run of the CLI reaches the shop from its tests, TLS verified', async () => {
    const dir = reportsDir();
    const run = await conformance({ ...settingsAt(front.url, dir), ZONES_CA_FILE: ca.caFile, ZONES_MODEL_RUNS: '0' }, [
      '--rule',
      'UPDATE-01',
    ]);
    expect(run.stderr).not.toMatch(/warning/i);
    const report = reportIn(dir) as ConformanceReport;
    expect(report.rules.find((rule) => rule.id === 'UPDATE-01')?.status, run.stderr).toBe('passed');
    expect(report.rules.filter((rule) => rule.status === 'failed').map((rule) => rule.id)).toEqual([]);
    expect(report.suiteErrors).toEqual([]);
    // Incomplete only for the rules left out.
    expect([report.verdict, run.code]).toEqual(['incomplete', 2]);
    expect(report).toMatchObject({ target: { tls: 'verified', proxy: null } });
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain('| TLS | verified |');
  });

  test.for([
    ['NODE_EXTRA_CA_CERTS', () => ({ NODE_EXTRA_CA_CERTS: ca.caFile })],
    // ZONES_CA_FILE adds to the trust store: NODE_EXTRA_CA_CERTS still counts beside it.
    [
      'NODE_EXTRA_CA_CERTS, beside a ZONES_CA_FILE of another CA',
      () => ({ NODE_EXTRA_CA_CERTS: ca.caFile, ZONES_CA_FILE: strangerCa.caFile }),
    ],
  ] as [string, () => Record<string, string>][])('in %s: the shop answers over verified TLS', async ([, extra]) => {
    // What a certificate says of TLS follows from the settings alone; the ZONES_CA_FILE run above reads it.
    await answeredOverTls(extra());
  });

  test('through a proxy as well: the https:// shop is reached through a CONNECT tunnel', async () => {
    const hidden = `https://staging.internal:${front.port}`;
    const config = configFrom({
      ...settingsAt(hidden),
      ZONES_CA_FILE: ca.caFile,
      HTTPS_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1',
    });
    const { api, sent } = clientFor(config);
    expect(await updateOneZone(api, 'zc-tls-tunnel')).toEqual([201, 200, 200, 200]);
    expect(sent.every((exchange) => exchange.url.startsWith(`${hidden}/`))).toBe(true);
    // The line a run starts with: zones-conformance: certifying <url><route>.
    expect(`certifying ${config.baseUrl}${routeDescription(config)}`).toBe(
      `certifying ${hidden} through the proxy ${proxy.url} (HTTPS_PROXY)`,
    );
    expect(proxy.log.length).toBeGreaterThan(0);
    expect(new Set(proxy.log)).toEqual(new Set([`CONNECT staging.internal:${front.port}`]));
  });
});

describe('ZONES_TLS_INSECURE=1, for a shop with no valid certificate', () => {
  test('the run works, warns, and the certificate says TLS was not verified', async () => {
    const insecure = { ...settingsAt(front.url), ZONES_TLS_INSECURE: '1' };
    // The warning comes before the preflight, so a run stopped there prints it too: every run does.
    const run = await conformance({ ...insecure, ZONES_ACCESS_TOKEN: 'shpat_not_the_reference_token' });
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(
      /^zones-conformance: warning: ZONES_TLS_INSECURE=1: the TLS certificate of 127\.0\.0\.1:\d+ is not verified/,
    );
    expect(run.stderr).toMatch(/cannot run: the target rejects the access token/);

    const config = configFrom(insecure);
    expect(insecureWarning(config)).toMatch(/^warning: ZONES_TLS_INSECURE=1: the TLS certificate of 127\.0\.0\.1:\d+/);
    const { api } = clientFor(config);
    expect(await updateOneZone(api, 'zc-tls-insecure')).toEqual([201, 200, 200, 200]);
    const { report, markdown } = certificateFor(config);
    expect(report).toMatchObject({ target: { tls: 'not-verified' } });
    expect(report.notes).toContainEqual(expect.stringMatching(/^TLS was not verified \(ZONES_TLS_INSECURE=1\)/));
    // In the header table, beside the verdict, not only somewhere below it.
    expect(markdown.split('## Rules')[0]).toContain('| TLS | **NOT VERIFIED** (ZONES_TLS_INSECURE=1) |');
  });
});
