// A shop behind TLS signed by a private CA, tried through the CLI. The CA and the server certificates
// are made when the tests start and removed when they end. A certificate the suite does not trust
// stops the run (exit 3) naming the settings that fix it; with the CA given either way, the run works;
// with verification switched off, it works and says so on every run and on the certificate.
// One run certifies the shop over verified TLS, every rule's example tests; the other ways to trust the
// CA, the tunnel and the switch each decide only whether the run can reach the shop, so they run one
// rule's test (UPDATE-01: a create, an update, a list read and a delete) between the preflight and the
// sweep. The model-based suite is left out of all of them: its client is built as the example tests'
// is, so its hundred or so requests would cross the same TLS connection and say nothing more about it.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import type { ConformanceJson, ConformanceReport } from '../helpers/report/certificate.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type ChildRun, runEntry } from './run-node.ts';
import { type ForwardProxy, startForwardProxy } from './support/forward-proxy.ts';
import { type Front, startTlsFront } from './support/fronts.ts';
import { suiteZonesOn } from './support/run-progress.ts';
import { makeTestCa, type TestCa } from './support/test-certificates.ts';

const reportsDir = () => mkdtempSync(join(tmpdir(), 'zc-tls-'));
const conformance = (env: Record<string, string>, args: string[] = []) => runEntry('bin/conformance.ts', args, env);
/**
 * One rule's example test reaches the shop as surely as a whole run does. The model-based suite is left
 * out of these runs: its hundred or so requests would say nothing more about the TLS connection.
 */
const oneRule = (env: Record<string, string>) =>
  runEntry('bin/conformance.ts', ['--rule', 'UPDATE-01'], { ...env, ZONES_MODEL_RUNS: '0' });

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
function settingsAt(url: string, dir: string): Record<string, string> {
  return {
    ...settingsForStyle(reference.style, url, reference.token),
    ...bookingHooksForReference(reference.url),
    ZONES_REPORTS_DIR: dir,
  };
}

function reportIn(dir: string): ConformanceJson {
  return JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceJson;
}

/** A run of oneRule that reached the shop: its rule passed, and it is incomplete only for the rules left out. */
function expectOneRuleWorked(run: ChildRun, report: ConformanceReport): void {
  expect(report.rules.find((rule) => rule.id === 'UPDATE-01')?.status, run.stderr).toBe('passed');
  expect(report.rules.filter((rule) => rule.status === 'failed').map((rule) => rule.id)).toEqual([]);
  expect(report.suiteErrors).toEqual([]);
  expect([report.verdict, run.code]).toEqual(['incomplete', 2]);
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

  test('ZONES_CA_FILE holding another CA: exit 3 saying the file does not hold the one that signed it', async () => {
    const run = await conformance({ ...settingsAt(front.url, reportsDir()), ZONES_CA_FILE: strangerCa.caFile });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`ZONES_CA_FILE=${strangerCa.caFile} does not hold it`);
  });

  test('made out to another host name: exit 3 naming the host name mismatch, ZONES_BASE_URL, and both CA settings', async () => {
    const run = await conformance({ ...settingsAt(misnamed.url, reportsDir()), ZONES_CA_FILE: ca.caFile });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /failed with ERR_TLS_CERT_ALTNAME_INVALID .*another host name, so ZONES_BASE_URL must use a name it lists; a CA in ZONES_CA_FILE \(a PEM file\) or NODE_EXTRA_CA_CERTS cannot change that/,
    );
    expect(misnamed.log).toEqual([]);
  });
});

describe('with the private CA given, the run works', () => {
  test('in ZONES_CA_FILE: a run of every rule, conformant, TLS verified', async () => {
    const dir = reportsDir();
    const run = await conformance({
      ...settingsAt(front.url, dir),
      ZONES_CA_FILE: ca.caFile,
      ZONES_MODEL_RUNS: '0',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/warning/i);
    const report = reportIn(dir) as ConformanceReport;
    expect(report).toMatchObject({ verdict: 'conformant', target: { tls: 'verified', proxy: null } });
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain('| TLS | verified |');
  });

  test.for([
    ['NODE_EXTRA_CA_CERTS', () => ({ NODE_EXTRA_CA_CERTS: ca.caFile })],
    // ZONES_CA_FILE adds to the trust store: NODE_EXTRA_CA_CERTS still counts beside it.
    [
      'NODE_EXTRA_CA_CERTS, beside a ZONES_CA_FILE of another CA',
      () => ({ NODE_EXTRA_CA_CERTS: ca.caFile, ZONES_CA_FILE: strangerCa.caFile }),
    ],
  ] as [string, () => Record<string, string>][])('in %s: the shop is reached, TLS verified', async ([, extra]) => {
    const dir = reportsDir();
    const run = await oneRule({ ...settingsAt(front.url, dir), ...extra() });
    expect(run.stderr).not.toMatch(/warning/i);
    const report = reportIn(dir) as ConformanceReport;
    expectOneRuleWorked(run, report);
    expect(report).toMatchObject({ target: { tls: 'verified', proxy: null } });
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain('| TLS | verified |');
  });

  test('through a proxy as well: the https:// shop is reached through a CONNECT tunnel', async () => {
    const dir = reportsDir();
    const hidden = `https://staging.internal:${front.port}`;
    const run = await oneRule({
      ...settingsAt(hidden, dir),
      ZONES_CA_FILE: ca.caFile,
      HTTPS_PROXY: proxy.url,
      NO_PROXY: '127.0.0.1',
    });
    expectOneRuleWorked(run, reportIn(dir) as ConformanceReport);
    expect(run.stdout).toContain(`certifying ${hidden} through the proxy ${proxy.url} (HTTPS_PROXY)`);
    expect(proxy.log.length).toBeGreaterThan(0);
    expect(new Set(proxy.log)).toEqual(new Set([`CONNECT staging.internal:${front.port}`]));
  });
});

describe('ZONES_TLS_INSECURE=1, for a shop with no valid certificate', () => {
  test('the run works, warns, and the certificate says TLS was not verified', async () => {
    const dir = reportsDir();
    const run = await oneRule({ ...settingsAt(front.url, dir), ZONES_TLS_INSECURE: '1' });
    expect(run.stderr).toMatch(
      /zones-conformance: warning: ZONES_TLS_INSECURE=1: the TLS certificate of 127\.0\.0\.1:\d+ is not verified/,
    );
    const report = reportIn(dir) as ConformanceReport;
    expectOneRuleWorked(run, report);
    expect(report).toMatchObject({ target: { tls: 'not-verified' } });
    expect(report.notes).toContainEqual(expect.stringMatching(/^TLS was not verified \(ZONES_TLS_INSECURE=1\)/));
    const markdown = readFileSync(join(dir, 'conformance.md'), 'utf8');
    // In the header table, beside the verdict, not only somewhere below it.
    expect(markdown.split('## Rules')[0]).toContain('| TLS | **NOT VERIFIED** (ZONES_TLS_INSECURE=1) |');
  });
});
