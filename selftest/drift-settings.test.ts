// A mock that needs other settings than its service differs from it: drift says which setting, exit 1.
// Only a target that cannot be reached or compared at all is exit 3, and drift names which one. The
// model-based suite is left out: these are about the preflight and the launcher, not the sequences.
// What differs between cases is the report, asked of drift's preflights in process
// (drift/drift-preflights.ts); the launcher that writes it, prints it and exits with its code, never
// starting a run after a refusal, is run for real once per exit path: 1 (a setting), 3 (a target refused
// at its preflight) and 3 (refused before any request, with its own reports).
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { readDriftTargets } from '../helpers/drift/targets.ts';
import { rules as catalogue } from '../helpers/rules.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type HouseStyle, houseStyles } from '../reference/styles.ts';
import { refusedAtPreflight } from './drift/drift-preflights.ts';
import { runDrift } from './drift/drift-run.ts';
import { projectRoot, runCommand } from './run-node.ts';
import { startRewritingFront } from './support/rewriting-front.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function shop(style?: HouseStyle): Promise<RunningReference> {
  const reference = await startReference({ style });
  closers.push(() => reference.close());
  return reference;
}

const WITHOUT_MODEL = { ZONES_MODEL_RUNS: '0' };
const reference = houseStyles.default!;

/**
 * A target nothing answers at: port 1 is never given out, where a closed server's port may be taken at
 * once by another self-test running beside this one.
 */
const GONE = { url: 'http://127.0.0.1:1', token: 'gone_token_0123456789', style: reference };

const BEARER_AUTH = { ...reference, name: 'bearer-auth', authHeader: 'Authorization', authScheme: 'Bearer' };

test.for([
  { label: 'another auth header', style: BEARER_AUTH, setting: 'ZONES_AUTH_HEADER' },
  {
    label: 'another envelope',
    style: { ...reference, name: 'bare-bodies', envelope: 'bare' as const },
    setting: 'ZONES_ENVELOPE',
  },
])('a mock that needs $label than the service drifts, exit 1, naming $setting', async ({ style, setting }) => {
  const service = await shop();
  const mock = await shop(style);
  const { report, markdown } = await refusedAtPreflight(service, mock);
  expect(report.exitCode, JSON.stringify(report, null, 2)).toBe(1);
  expect(report.verdict).toBe('drifted');
  expect(report.differences).toHaveLength(1);
  const difference = report.differences[0]!;
  expect(difference.aspect).toBe('setting');
  expect(difference.subject?.split(', ')).toContain(setting);
  expect(difference.exchanges.mock?.curl).toContain(mock.url);
  // The mock's challenge (WWW-Authenticate: Bearer) says it reads the credential another way: not a wrong token.
  if (setting === 'ZONES_AUTH_HEADER') expect(difference.mock).toMatch(/asks for the credential by the scheme Bearer/);
  expect(markdown).toContain(setting);
  // Drift's own preflights decided it: the service's passed, the mock's refused the setting, and the
  // report says neither conformance run started; each preflight deleted its zone.
  expect(report.targets.service.verdict).toBe('not run (its preflight passed)');
  expect(report.rules.map((rule) => rule.id)).toEqual(catalogue.map((rule) => rule.id));
  expect(report.rules.every((rule) => rule.service === 'not run' && rule.mock === 'not run')).toBe(true);
  expect(mock.backdoor.all()).toEqual([]);
  expect(service.backdoor.all()).toEqual([]);
});

test('through the launcher, a mock that needs another auth header is exit 1, its setting in drift.md, and neither run starts', async () => {
  const service = await shop();
  const mock = await shop(BEARER_AUTH);
  const { run, report, markdown, reportsDir } = await runDrift(service, mock, WITHOUT_MODEL);
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(1);
  expect(report.verdict).toBe('drifted');
  expect(markdown).toContain('ZONES_AUTH_HEADER');
  // The service's suite made no zone on it for nothing: no run wrote a certificate.
  for (const side of ['service', 'mock'])
    expect(existsSync(join(reportsDir, 'drift', side, 'conformance.json')), side).toBe(false);
  expect(mock.backdoor.all()).toEqual([]);
  expect(service.backdoor.all()).toEqual([]);
});

test('a mock that cannot be reached is exit 3, naming the mock', async () => {
  const service = await shop();
  const { report, line } = await refusedAtPreflight(service, GONE);
  expect(report.exitCode, JSON.stringify(report, null, 2)).toBe(3);
  expect(report.verdict).toBe('could-not-run');
  expect(report.reason).toMatch(/^the mock could not run: /);
  expect(line).toContain('the mock could not run');
  // Known at the preflights: the service was never asked, and its preflight's zone is gone.
  expect(report.targets.service.verdict).toBe('not run (not asked: the mock could not run)');
  expect(service.backdoor.all()).toEqual([]);
});

test('through the launcher, a mistyped mock token is exit 3 naming ZONES_MOCK_ACCESS_TOKEN, and nothing is asked of the service', async () => {
  const reference = await shop();
  const asked: string[] = [];
  const front = await startRewritingFront(reference.url, (answer, request) => {
    asked.push(`${request.method} ${request.path}`);
    return answer;
  });
  closers.push(() => front.close());
  const mock = await shop();
  const { run, report } = await runDrift(
    { ...reference, url: front.url },
    { url: mock.url, token: `${mock.token}x` },
    WITHOUT_MODEL,
  );
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(3);
  expect(report.verdict).toBe('could-not-run');
  expect(report.reason).toMatch(
    /^the mock could not run: the target rejects the access token .*ZONES_MOCK_ACCESS_TOKEN/,
  );
  expect(run.stderr).toContain('ZONES_MOCK_ACCESS_TOKEN');
  expect(report.targets.service.verdict).toBe('not run (not asked: the mock could not run)');
  expect(asked).toEqual([]);
  expect(mock.backdoor.all()).toEqual([]);
});

test('a service that cannot be reached is exit 3, naming the service, whatever the mock did', async () => {
  const mock = await shop();
  const { report } = await refusedAtPreflight(GONE, mock);
  expect(report.exitCode, JSON.stringify(report, null, 2)).toBe(3);
  expect(report.reason).toMatch(/^the service could not run: /);
  expect(mock.backdoor.all()).toEqual([]);
});

test('drift without a mock to compare with is exit 3, naming ZONES_MOCK_BASE_URL, before any request', () => {
  // Refused on its settings as the launcher reads them (its refuse leaves with exit 3, as the next test shows).
  const settings = { ZONES_BASE_URL: 'http://127.0.0.1:1', ZONES_ACCESS_TOKEN: 'svc_token_0123456789' };
  const refuse = (reason: string): never => {
    throw new Error(reason);
  };
  expect(() => readDriftTargets(settings, refuse)).toThrow(/ZONES_MOCK_BASE_URL \(the mock\) is not set/);
});

test("a password in the mock's address is refused before any request, and no report or line repeats it", async () => {
  const reportsDir = mkdtempSync(join(tmpdir(), 'zc-drift-userinfo-'));
  const run = await runCommand(process.execPath, ['bin/zones-conformance.mjs', 'drift'], {
    cwd: projectRoot,
    env: {
      ZONES_BASE_URL: 'http://127.0.0.1:1',
      ZONES_ACCESS_TOKEN: 'svc_token_0123456789',
      ZONES_MOCK_BASE_URL: 'http://ops:m0ck-Secret@127.0.0.1:1',
      ZONES_MOCK_ACCESS_TOKEN: 'mock_token_0123456789',
      ZONES_REPORTS_DIR: reportsDir,
    },
  });
  expect(run.code).toBe(3);
  expect(run.stderr).toMatch(/cannot run: .*ZONES_MOCK_BASE_URL must not carry a user name or password/);
  const written = readdirSync(reportsDir).map((name) => readFileSync(join(reportsDir, name), 'utf8'));
  expect(written.length).toBeGreaterThan(0);
  for (const text of [...written, run.stdout, run.stderr]) expect(text).not.toContain('m0ck-Secret');
});
