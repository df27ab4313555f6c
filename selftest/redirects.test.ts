// Redirects are never followed. The commonest slip, an http:// base URL that a
// load balancer redirects to https://, stops in the preflight naming ZONES_BASE_URL and the address to
// use, before any zone is made (the launcher's preflight, in process: the exit 3 it leads to is shown
// through the CLI in tls.test.ts); a redirect later in the run is evidence, shown with its Location, in
// a run of the CLI.
// The https:// side is trusted (ZONES_CA_FILE), so a client that followed would get answers there: the
// tests check that nothing ever arrived.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { runEntry } from './run-node.ts';
import { type Front, samePathOn, startRedirectFront, startRedirectingFront, startTlsFront } from './support/fronts.ts';
import { preflightRefusal } from './support/net-in-process.ts';
import { suiteZonesOn } from './support/run-progress.ts';
import { makeTestCa, type TestCa } from './support/test-certificates.ts';

const reportsDir = () => mkdtempSync(join(tmpdir(), 'zc-redirect-'));
const conformance = (env: Record<string, string>, args: string[] = []) => runEntry('bin/conformance.ts', args, env);

let ca: TestCa;
let reference: RunningReference;
let httpsFront: Front;
const fronts: Front[] = [];

beforeAll(async () => {
  ca = makeTestCa();
  reference = await startReference();
  httpsFront = await startTlsFront(reference.url, ca.issue(['IP:127.0.0.1']));
});

afterEach(async () => {
  await Promise.all(fronts.splice(0).map((front) => front.close()));
  httpsFront.log.length = 0;
});

afterAll(async () => {
  await Promise.all([httpsFront?.close(), reference?.close()]);
  ca?.remove();
});

async function front(started: Promise<Front>): Promise<Front> {
  const running = await started;
  fronts.push(running);
  return running;
}

function settingsAt(url: string, dir: string): Record<string, string> {
  return {
    ...settingsForStyle(reference.style, url, reference.token),
    ...bookingHooksForReference(reference.url),
    ZONES_CA_FILE: ca.caFile,
    ZONES_REPORTS_DIR: dir,
  };
}

// The launcher's preflight, in this process: the reason it gives is the one line a run prints before exit 3.
describe('a base URL that redirects stops the run in the preflight, before any zone is made', () => {
  test.for([301, 308])(
    'http:// answered %i to https://: the preflight stops naming ZONES_BASE_URL and the https:// address',
    async (status) => {
      const redirecting = await front(startRedirectFront(status, samePathOn(httpsFront.url)));
      const reason = await preflightRefusal(settingsAt(redirecting.url, reportsDir()));
      expect(reason).not.toContain('\n');
      expect(reason).toContain(
        `GET ${redirecting.url}/admin/api/2026-07/zones.json answered ${status}, a redirect to ${httpsFront.url}/admin/api/2026-07/zones.json`,
      );
      expect(reason).toMatch(new RegExp(`: set ZONES_BASE_URL=${httpsFront.url.replace(/\./g, '\\.')}$`));
      // Asked once, and nothing more: no create, and nothing sent where the redirect pointed.
      expect(redirecting.log).toEqual(['GET /admin/api/2026-07/zones.json']);
      expect(httpsFront.log).toEqual([]);
      expect(await suiteZonesOn(reference)).toEqual([]);
    },
  );

  test('a redirect that leads elsewhere than the zone list (a sign-in gateway): the preflight stops naming ZONES_BASE_URL, with no address guessed', async () => {
    const gateway = await front(startRedirectFront(302, (path) => `/sso/login?return_to=${encodeURIComponent(path)}`));
    const reason = await preflightRefusal(settingsAt(gateway.url, reportsDir()));
    expect(reason).toContain(`answered 302, a redirect to ${gateway.url}/sso/login?return_to=`);
    expect(reason).toMatch(
      /which is not the zone list \(a sign-in gateway\?\).*: set ZONES_BASE_URL to the shop's own address/,
    );
    expect(gateway.log).toEqual(['GET /admin/api/2026-07/zones.json']);
  });
});

describe('a redirect later in the run', () => {
  test('is evidence, with its Location shown, and is never followed', async () => {
    // Everything reaches the shop but updates, which are sent to the https:// address instead.
    const redirecting = await front(startRedirectingFront(reference.url, 'PUT', 307, samePathOn(httpsFront.url)));
    const dir = reportsDir();
    // UPDATE-01's example test alone (a create, an update, a read-back and a delete): its failure
    // decides the exit code. The model-based suite would only fail beside it and shrink its sequence.
    const run = await conformance({ ...settingsAt(redirecting.url, dir), ZONES_MODEL_RUNS: '0' }, [
      '--rule',
      'UPDATE-01',
    ]);
    expect(run.code, run.stderr).toBe(1);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
    const update = report.rules.find((rule) => rule.id === 'UPDATE-01')!;
    expect(update.status).toBe('failed');
    const shown = update.tests.flatMap((t) => [t.reason ?? '', ...t.exchanges]).join('\n');
    expect(shown).toMatch(
      new RegExp(
        `PUT ${redirecting.url}/admin/api/2026-07/zones/\\d+\\.json \\[valid\\] -> 307 \\(Location: ${httpsFront.url}/admin/api/2026-07/zones/\\d+\\.json\\)`,
      ),
    );
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain(
      `(Location: ${httpsFront.url}/admin/api/2026-07/zones/`,
    );
    expect(httpsFront.log, 'no write was replayed at the address the redirect named').toEqual([]);
    expect(await suiteZonesOn(reference)).toEqual([]);
  });
});
