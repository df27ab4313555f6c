// `npm run conformance` as a user meets it: exit codes, the one-line refusal of a run that cannot
// happen, the report files, and the token kept out of every output. A child process per way out (0, 1,
// 3 refused before and at the preflight); what refuses or judges beyond that is checked on its function.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { readTargetConfig } from '../helpers/config.ts';
import type { ConformanceJson, ConformanceReport } from '../helpers/report/certificate.ts';
import { xml } from '../helpers/report/junit.ts';
import { SETTINGS } from '../helpers/settings.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type ChildRun, projectRoot, runCommand, runEntry } from './run-node.ts';
import { judgeAgain } from './support/cli-nights.ts';
import { filesUnder } from './support/files-under.ts';
import { preflightRefusal } from './support/net-in-process.ts';

const TOKEN = 'shpat_selftest_0123456789abcdef';
const conformance = (env: Record<string, string>, args: string[] = []) => runEntry('bin/conformance.ts', args, env);
const reportsDir = () => mkdtempSync(join(tmpdir(), 'zc-cli-'));

/** Reports from an earlier run that was certified, as a CI workspace kept them. */
function staleReportsDir(): string {
  const dir = reportsDir();
  writeFileSync(join(dir, 'conformance.json'), '{"verdict":"conformant","exitCode":0}\n');
  writeFileSync(join(dir, 'conformance.md'), '# Conformance certificate: CONFORMANT\n');
  writeFileSync(join(dir, 'junit.xml'), '<testsuites name="zones-conformance" tests="40" failures="0"/>\n');
  mkdirSync(join(dir, 'allure-results'));
  writeFileSync(join(dir, 'allure-results', 'old-result.json'), '{}');
  mkdirSync(join(dir, 'ledgers'));
  writeFileSync(join(dir, 'ledgers', 'old-run.jsonl'), '');
  return dir;
}

interface RefusedRun {
  dir: string;
  run: ChildRun;
  /** Just before the run was started: a start time from then on is this run's, however slow the machine. */
  launchedAt: number;
}

/**
 * A refused run that two tests read: one checks what the user sees, the other what is left in a
 * reports folder that held an earlier run's verdict. Started by whichever test comes first.
 */
function refusedRun(env: Record<string, string>, args: string[] = []): () => Promise<RefusedRun> {
  let started: Promise<RefusedRun> | undefined;
  return () => {
    started ??= (async () => {
      const dir = staleReportsDir();
      const launchedAt = Date.now();
      return { dir, launchedAt, run: await conformance({ ...env, ZONES_REPORTS_DIR: dir }, args) };
    })();
    return started;
  };
}

const badSettings = refusedRun({
  ZONES_BASE_URL: 'http://127.0.0.1:9',
  ZONES_STATUSES: 'live',
  ZONES_ENVELOPE: 'boxed',
});
const unknownOption = refusedRun({}, ['--colour']);
const unreachable = refusedRun({ ZONES_BASE_URL: 'http://127.0.0.1:9', ZONES_ACCESS_TOKEN: TOKEN });

describe('runs that cannot happen exit 3 with one message', () => {
  test('--help lists every setting and exits 0', async () => {
    const run = await conformance({}, ['--help']);
    expect(run.code).toBe(0);
    for (const doc of SETTINGS) expect(run.stdout).toContain(doc.name);
  });

  test('bad settings name every bad variable, before any request', async () => {
    const { run } = await badSettings();
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/ZONES_ACCESS_TOKEN.*ZONES_STATUSES.*ZONES_ENVELOPE/);
    expect(run.stdout).toBe('');
  });

  test('an unknown option is refused', async () => {
    const { run } = await unknownOption();
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/--colour/);
  });

  test('an unreachable target', async () => {
    const { run } = await unreachable();
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(
      /cannot reach the target at http:\/\/127\.0\.0\.1:9\S*: .*ECONNREFUSED.*Is the shop at ZONES_BASE_URL \(http:\/\/127\.0\.0\.1:9\) up, and reachable from here\?$/m,
    );
    expect(run.stderr + run.stdout).not.toContain(TOKEN);
  });

  // The preflight's other refusals leave by the same way as the unreachable target above (cannotRun in
  // bin/conformance.ts): checked on the preflight itself, without a process each.
  test('a target that rejects the token', async () => {
    const reference = await startReference({ token: 'the-real-token' });
    try {
      const refusal = await preflightRefusal({ ZONES_BASE_URL: reference.url, ZONES_ACCESS_TOKEN: TOKEN });
      expect(refusal).toMatch(/rejects the access token.*401/);
      expect(refusal).not.toContain(TOKEN);
    } finally {
      await reference.close();
    }
  });

  test('a list that cannot be read with the envelope and id settings', async () => {
    const reference = await startReference({ token: TOKEN });
    try {
      const refusal = await preflightRefusal({
        ...settingsForStyle(reference.style, reference.url, TOKEN),
        ZONES_ENVELOPE: 'bare',
      });
      expect(refusal.split('\n')).toHaveLength(1);
      expect(refusal).toMatch(
        /cannot be read with ZONES_ENVELOPE=bare and ZONES_ID_FIELD=id: the body is not an array/,
      );
    } finally {
      await reference.close();
    }
  });
});

describe("a run that cannot start leaves its own verdict, not the previous run's", () => {
  function expectCouldNotRun({ dir, run, launchedAt }: RefusedRun, baseUrl: string | null): void {
    expect(run.code).toBe(3);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    const reason = lines[0]!.replace(/^zones-conformance: cannot run: /, '');
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceJson;
    expect(report).toMatchObject({ verdict: 'could-not-run', exitCode: 3, reason, target: { baseUrl } });
    expect(Date.parse(report.finishedAt)).toBeGreaterThanOrEqual(Date.parse(report.startedAt));
    expect(Date.parse(report.startedAt), "the start time is this run's").toBeGreaterThanOrEqual(launchedAt);
    expect(Date.parse(report.finishedAt)).toBeLessThanOrEqual(Date.now());
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toMatch(/^# Conformance certificate: COULD NOT RUN/);
    const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/tests="1" failures="0" errors="1"/);
    expect(junit).toContain(`<error message="${xml(`could not run: ${reason}`)}">`);
    expect(existsSync(join(dir, 'allure-results')), "the earlier run's allure results").toBe(false);
    expect(existsSync(join(dir, 'ledgers', 'old-run.jsonl')), 'ledgers are for npm run sweep and stay').toBe(true);
    // The earlier certificate is not lost: it moved to previous/, whole.
    expect(readFileSync(join(dir, 'previous', 'conformance.json'), 'utf8')).toContain('"verdict":"conformant"');
    expect(existsSync(join(dir, 'previous', 'allure-results', 'old-result.json'))).toBe(true);
  }

  test('after bad settings', async () => {
    const refused = await badSettings();
    expectCouldNotRun(refused, 'http://127.0.0.1:9');
    const { run } = refused;
    expect(run.stderr).toMatch(/ZONES_ACCESS_TOKEN.*ZONES_STATUSES/);
  });

  test('after an unreachable target, with no token in any file', async () => {
    const refused = await unreachable();
    expectCouldNotRun(refused, 'http://127.0.0.1:9');
    const { dir, run } = refused;
    expect(run.stderr).toMatch(/cannot reach the target/);
    for (const file of filesUnder(dir)) expect(readFileSync(file, 'utf8').includes(TOKEN), file).toBe(false);
  });

  test('after an unknown option, with no target named', async () => {
    expectCouldNotRun(await unknownOption(), null);
  });
});

describe('a full run against a target named by settings: a .env and a shop profile in the folder it runs from', () => {
  let reference: RunningReference;
  let caller: string;
  let dir: string;
  let run: ChildRun;

  beforeAll(async () => {
    reference = await startReference({ token: TOKEN, style: 'data-envelope' });
    caller = mkdtempSync(join(tmpdir(), 'zc-cli-caller-'));
    writeFileSync(join(caller, 'shop.json'), readFileSync(join(projectRoot, 'profiles', 'data-envelope.json')));
    // Where the shop is and its token come from the caller's .env, the house style from the profile
    // beside it (a relative path), and the booking hooks, which a profile refuses, from variables; the
    // reports go where a user who set nothing finds them, reports/ in that folder. The installed command,
    // as a user starts it.
    writeFileSync(
      join(caller, '.env'),
      `ZONES_BASE_URL=${reference.url}\nZONES_ACCESS_TOKEN=${TOKEN}\nZONES_PROFILE=shop.json\n`,
    );
    run = await runCommand(process.execPath, [join(projectRoot, 'bin', 'zones-conformance.mjs')], {
      cwd: caller,
      env: bookingHooksForReference(),
    });
    dir = join(caller, 'reports');
  });
  afterAll(() => reference.close());

  // Moved here from shop-profile.test.ts, whose whole run this was: one run gives both files' evidence.
  test('certifies the reference in the style its profile says: the report names the profile', () => {
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
    expect(report.target).toMatchObject({ baseUrl: reference.url, embedded: false });
    expect(report.target.settings).toMatchObject({ profile: 'shop.json', zoneKey: 'data', paging: 'cursor' });
  });

  test('is conformant, exit 0', () => {
    expect(run.stdout).toMatch(/verdict: CONFORMANT/);
    expect(run.code, run.stderr).toBe(0);
  });

  test('writes conformance.json with the verdict, target, times, every rule, requests and clean-up', () => {
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
    expect(report).toMatchObject({
      verdict: 'conformant',
      target: { baseUrl: reference.url },
      cleanup: { leftBehind: [] },
    });
    expect(Date.parse(report.finishedAt)).toBeGreaterThanOrEqual(Date.parse(report.startedAt));
    expect(report.requests.total).toBeGreaterThan(50);
    expect(report.cleanup.created).toBe(report.cleanup.deleted);
    for (const rule of report.rules)
      expect(rule).toMatchObject({
        id: expect.any(String),
        level: expect.stringMatching(/^(must|should|may)$/),
        status: 'passed',
        tests: expect.any(Array),
      });
  });

  test('writes the certificate, junit.xml and allure results labelled with rule ids', () => {
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toMatch(/^# Conformance certificate: CONFORMANT/);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain('CREATE-02 a new zone is in draft status');
    const results = readdirSync(join(dir, 'allure-results')).filter((f) => f.endsWith('-result.json'));
    expect(results.length).toBeGreaterThan(30);
    const labels = results.map(
      (f) =>
        JSON.parse(readFileSync(join(dir, 'allure-results', f), 'utf8')).labels as { name: string; value: string }[],
    );
    expect(labels.every((list) => list.some((l) => l.name === 'rule' && /^[A-Z]+-\d{2}$/.test(l.value)))).toBe(true);
  });

  test('never writes the token: not to the console, a report, an attachment or the ledger', () => {
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
    const files = filesUnder(dir);
    expect(files.length).toBeGreaterThan(10);
    for (const file of files) expect(readFileSync(file, 'utf8').includes(TOKEN), file).toBe(false);
  });

  test('its certificate outlives a later run that cannot start, and another after that, under previous/', async () => {
    const { runId } = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
    for (const mistyped of ['boxed', 'wrappd']) {
      const refused = await conformance({ ZONES_REPORTS_DIR: dir, ZONES_ENVELOPE: mistyped });
      expect(refused.code).toBe(3);
      expect(JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')).verdict).toBe('could-not-run');
      const kept = JSON.parse(readFileSync(join(dir, 'previous', 'conformance.json'), 'utf8'));
      expect(kept).toMatchObject({ verdict: 'conformant', runId });
      expect(readFileSync(join(dir, 'previous', 'conformance.html'), 'utf8')).toContain(runId);
    }
  });
});

// One partial run for two tests: a shop that breaks UPDATE-01 and serves its zones under 2026-04 too,
// through a front that hands those paths to 2026-07.
describe('a partial run at version 2026-04 of a shop whose updates ignore the name', () => {
  let reference: RunningReference;
  let front: Server;
  /** The run, its settings and its reports folder, and the certificate it wrote there. */
  let partial: { settings: Record<string, string>; dir: string; run: ChildRun; report: ConformanceReport };

  beforeAll(async () => {
    reference = await startReference({ token: TOKEN, fault: 'update-ignores-name' });
    front = createServer((req, res) => {
      const onward = request(
        `${reference.url}${(req.url ?? '/').replace('/admin/api/2026-04/', '/admin/api/2026-07/')}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(onward);
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    const frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
    const dir = reportsDir();
    // Only the rules at stake: a failed MUST rule decides the exit code, whatever was left out. Its
    // example test shows it; the model-based suite would fail beside it and shrink its sequence.
    const settings = {
      ...settingsForStyle(reference.style, frontUrl, TOKEN),
      ZONES_API_VERSION: '2026-04',
      ZONES_REPORTS_DIR: dir,
      ZONES_MODEL_RUNS: '0',
    };
    const run = await conformance(settings, ['--rule', 'UPDATE-01,PATH-01']);
    partial = { settings, dir, run, report: JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) };
  });
  afterAll(async () => {
    front.closeAllConnections();
    front.close();
    await reference.close();
  });

  test('a target that breaks a rule exits 1 and names the rule', () => {
    const { run, dir } = partial;
    expect(run.stdout).toMatch(/FAILED\s+UPDATE-01 an update changes the name/);
    expect(run.stdout).toMatch(/verdict: NON-CONFORMANT/);
    expect(run.code).toBe(1);
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toMatch(
      /### UPDATE-01 FAILED[\s\S]*> GET http[\s\S]*`PUT http[^`]*-> 200`/,
    );
  });

  test("at a version segment other than the specification's, PATH-01 is not verified and the report says why", async () => {
    const { report, settings } = partial;
    expect(report.rules.find((rule) => rule.id === 'PATH-01')).toMatchObject({
      status: 'not-verified',
      reason: expect.stringContaining('version segment 2026-04'),
    });
    expect(report.notes).toEqual(expect.arrayContaining([expect.stringContaining("not the specification's 2026-07")]));
    // Not a failure: PATH-01's run alone, judged again from its real outcomes, is incomplete, exit 2.
    expect(judgeAgain(report, readTargetConfig(settings), { rule: 'PATH-01' }).report).toMatchObject({
      verdict: 'incomplete',
      exitCode: 2,
    });

    // A shop that has no such version answers 404 there: a setting to fix, named by the preflight.
    const unserved = await preflightRefusal({
      ...settingsForStyle(reference.style, reference.url, TOKEN),
      ZONES_API_VERSION: '2026-04',
    });
    expect(unserved).toMatch(/\/admin\/api\/2026-04\/zones\.json answered 404.*ZONES_API_VERSION/);
  });
});

// With no settings the embedded reference is certified: packed-install.test.ts runs that whole run, from
// an install as a user has it, and cli-options.test.ts runs parts of it from this checkout.
