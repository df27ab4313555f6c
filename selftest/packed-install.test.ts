// The suite as another repository gets it: `npm pack`, the tarball installed into an empty folder
// (from the npm cache where it can), and the `zones-conformance` command run there. It certifies its
// embedded reference, writing its reports into that folder and nowhere in the package, and a shop written here
// apart from it (support/independent-shop.ts); from code, certify() certifies that shop too and startMock()
// serves a mock; and each subcommand answers. The install takes some seconds (it fetches vitest, allure and tsx's esbuild), so
// the time it took is printed with the result.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildIsCurrent } from '../bin/build-freshness.mjs';
import { type ChildRun, npmCommand, projectRoot, runCommand } from './run-node.ts';
import { startIndependentShop } from './support/independent-shop.ts';

const work = mkdtempSync(join(tmpdir(), 'zc-packed-'));
const caller = join(work, 'caller');
const npm = npmCommand();
const runNpm = (args: string[], cwd: string) => runCommand(npm.command, [...npm.args, ...args], { cwd });
const zonesConformance = (args: string[], env: Record<string, string> = {}) =>
  runCommand(join(caller, 'node_modules', '.bin', 'zones-conformance'), args, { cwd: caller, env });

let packed: { filename: string; files: { path: string }[] };
let install: ChildRun;
let installSeconds: number;

beforeAll(async () => {
  // npm pack runs `prepare`, which compiles the launcher side again, writing its JavaScript in place
  // while the other self-tests start the commands from it. Once the build is current (npm test builds
  // first) it is packed as it stands; a stale one is rebuilt, as npm pack would for a user.
  const scripts = buildIsCurrent(projectRoot) ? ['--ignore-scripts'] : [];
  const pack = await runNpm(['pack', ...scripts, '--json', '--pack-destination', work], projectRoot);
  expect(pack.code, pack.stderr).toBe(0);
  packed = JSON.parse(pack.stdout)[0];
  mkdirSync(caller);
  writeFileSync(join(caller, 'package.json'), '{ "name": "nightly-checks", "private": true }\n');
  const started = Date.now();
  install = await runNpm(
    ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename)],
    caller,
  );
  installSeconds = (Date.now() - started) / 1000;
  console.info(`npm install of the packed tarball took ${installSeconds.toFixed(1)} s`);
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the tarball', () => {
  test('holds the entry points, the suites, the reference, the profiles and the specification', () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'bin/zones-conformance.mjs',
        'bin/conformance.ts',
        'bin/sweep.ts',
        'bin/reference.ts',
        'bin/report.ts',
        'helpers/runner/run-suites.ts',
        'suites/auth.test.ts',
        'reference/server.ts',
        'profiles/shopify-style.json',
        'profiles/shop-profile.schema.json',
        'docs/zone-service-2026-07.md',
        'allurerc.ts',
        'tsconfig.json',
        'README.md',
      ]),
    );
  });

  test("holds none of the suite's own tests, reports or settings", () => {
    const stray = packed.files
      .map((file) => file.path)
      .filter((path) => /^(selftest|reports|node_modules)\/|^\.env$/.test(path));
    expect(stray).toEqual([]);
  });

  test('every package its code imports is a dependency, which an install brings, not a devDependency', () => {
    const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8'));
    const imported = new Map<string, string>();
    for (const { path } of packed.files.filter((file) => /\.(ts|mjs)$/.test(file.path))) {
      const source = readFileSync(join(projectRoot, path), 'utf8');
      // A type-only import is gone at run time, so it needs no installed package.
      const statements =
        /^\s*(?:import|export)\s+(?!type\s)[^;]*?\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
      for (const match of source.matchAll(statements)) {
        const specifier = (match[1] ?? match[2] ?? match[3])!;
        if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
        const parts = specifier.split('/');
        imported.set(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!, path);
      }
    }
    expect(imported.size).toBeGreaterThan(3);
    const missing = [...imported].filter(([name]) => !Object.hasOwn(manifest.dependencies, name));
    expect(missing.map(([name, path]) => `${name} (imported by ${path})`)).toEqual([]);
  });

  test('installs', () => {
    expect(install.code, install.stderr).toBe(0);
    expect(existsSync(join(caller, 'node_modules', '.bin', 'zones-conformance'))).toBe(true);
  });
});

describe('the installed command, run from the folder that installed it', () => {
  let run: ChildRun;
  beforeAll(async () => {
    run = await zonesConformance([]);
  });

  // The one whole run of the embedded reference with no settings in npm test: what `npm ci && npm run
  // conformance` shows a new user, here as another repository's install runs it.
  test('certifies the embedded reference: conformant, exit 0', () => {
    expect(run.stdout).toMatch(/certifying http:\/\/127\.0\.0\.1:\d+ \(embedded reference: no ZONES_BASE_URL set\)/);
    expect(run.stdout).toMatch(/verdict: CONFORMANT/);
    expect(run.code, run.stderr).toBe(0);
  });

  test("writes the reports into the caller's folder, not the package's", () => {
    const report = JSON.parse(readFileSync(join(caller, 'reports', 'conformance.json'), 'utf8'));
    expect(report).toMatchObject({ verdict: 'conformant', exitCode: 0, target: { embedded: true } });
    expect(existsSync(join(caller, 'reports', 'junit.xml'))).toBe(true);
    expect(existsSync(join(caller, 'node_modules', 'zones-conformance', 'reports'))).toBe(false);
  });

  test('certifies a shop this project did not build, written from the specification alone: conformant, exit 0', async () => {
    const shop = await startIndependentShop();
    try {
      const run = await zonesConformance(['conformance', '--quiet'], {
        ...shop.settings,
        ZONES_REPORTS_DIR: 'shop-reports',
      });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^verdict: CONFORMANT /m);
    } finally {
      await shop.close();
    }
  });

  // The same shop, as a team's script certifies it through the package's export.
  test("certify from 'zones-conformance' resolves to the certificate, conformant for a shop this project did not build; settings it cannot use reject; an aborted signal stops a run as SIGTERM does, and an ended run lets go of its signal; the declarations package.json names are there", async () => {
    const installed = join(caller, 'node_modules', 'zones-conformance');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8'));
    for (const types of [manifest.types, manifest.exports['.'].types, manifest.exports['./mock'].types])
      expect(existsSync(join(installed, types)), types).toBe(true);
    writeFileSync(
      join(caller, 'certify-check.mjs'),
      `import { getEventListeners } from 'node:events';
import { certify } from 'zones-conformance';
const settings = JSON.parse(process.env.SHOP_SETTINGS);
const refusal = await certify({ settings: { ZONES_PAGING: 'pages' } }).then(() => 'not refused', (error) => error.message);
console.log(JSON.stringify(refusal));
// One signal shared by the runs of a script: aborted, it stops a run as a SIGTERM would; a run that has ended lets go of it.
const shared = new AbortController();
const certificate = await certify({ settings: { ...settings, ZONES_MODEL_RUNS: '0' }, reportsDir: 'api-reports', signal: shared.signal });
console.log('listeners', getEventListeners(shared.signal, 'abort').length);
const stopped = await certify({ settings, rules: ['CREATE-02'], reportsDir: false, signal: AbortSignal.abort() });
console.log('stopped', JSON.stringify(stopped.stopped), stopped.exitCode);
console.log(certificate.verdict, certificate.exitCode);
`,
    );
    const shop = await startIndependentShop();
    const run = await runCommand(process.execPath, ['certify-check.mjs'], {
      cwd: caller,
      env: { SHOP_SETTINGS: JSON.stringify(shop.settings) },
    }).finally(() => shop.close());
    const [refusal, ...rest] = run.stdout.trim().split('\n');
    expect([run.code, rest.at(-1)], run.stdout + run.stderr).toEqual([0, 'conformant 0']);
    expect(rest).toContain('listeners 0');
    expect(rest).toContain('stopped {"signal":"SIGTERM","exitCode":143} 143');
    expect(existsSync(join(caller, 'api-reports', 'conformance.json'))).toBe(true);
    expect(JSON.parse(refusal!)).toContain('ZONES_PAGING must be link, page or cursor');
  });

  test("startMock from 'zones-conformance/mock', with its declarations, serves a create there, in the house style of the profile it was given", async () => {
    expect(existsSync(join(caller, 'node_modules', 'zones-conformance', 'dist', 'bin', 'mock-api.d.ts'))).toBe(true);
    writeFileSync(
      join(caller, 'mock-check.mjs'),
      `import { startMock } from 'zones-conformance/mock';
const mock = await startMock({ profile: { auth_header: 'X-Api-Key', envelope: 'bare', id_field: 'uid' } });
const created = await fetch(mock.url + '/admin/api/2026-07/zones.json', {
  method: 'POST',
  headers: { 'X-Api-Key': mock.token, 'content-type': 'application/json' },
  body: JSON.stringify({ name: 'from a team script', coverage: {} }),
});
console.log(JSON.stringify({ status: created.status, zone: await created.json(), settings: Object.keys(mock.settings) }));
await mock.close();
`,
    );
    const run = await runCommand(process.execPath, ['mock-check.mjs'], { cwd: caller });
    expect(run.code, run.stderr).toBe(0);
    const { status, zone, settings } = JSON.parse(run.stdout);
    expect(status).toBe(201);
    expect(zone).toMatchObject({ uid: expect.any(Number), name: 'from a team script', status: 'draft' });
    expect(settings).toEqual(expect.arrayContaining(['ZONES_BASE_URL', 'ZONES_ACCESS_TOKEN', 'ZONES_PROFILE']));
  });

  test('report builds the HTML report there', async () => {
    const report = await zonesConformance(['report']);
    expect(report.code, report.stderr).toBe(0);
    expect(existsSync(join(caller, 'reports', 'allure-report', 'index.html'))).toBe(true);
  });

  test('--version, and reference, sweep, ci, drift and mock are subcommands; an unknown one is refused with exit 3', async () => {
    const reference = await zonesConformance(['reference', '--help']);
    expect(reference.code).toBe(0);
    expect(reference.stdout).toMatch(/Starts the embedded reference/);
    const sweep = await zonesConformance(['sweep']);
    expect(sweep.code).toBe(3);
    expect(sweep.stderr).toMatch(/ZONES_BASE_URL is not set: there is no shop to sweep/);
    const version = await zonesConformance(['--version']);
    expect(version.stdout.trim()).toBe(
      `zones-conformance ${JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')).version}`,
    );
    for (const command of ['ci', 'drift']) {
      const help = await zonesConformance([command, '--help']);
      expect(help.code, command).toBe(0);
      expect(help.stdout, command).toMatch(new RegExp(`Usage: (zones-conformance|npm run) ${command}`));
    }
    const mock = await zonesConformance(['mock', '--help']);
    expect(mock.code).toBe(0);
    expect(mock.stdout).toMatch(/--profile FILE/);
    const unknown = await zonesConformance(['certify']);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr).toMatch(
      /no command "certify"; the commands are conformance, sweep, reference, mock, report/,
    );
  });
});
