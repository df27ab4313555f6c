// Redirects are never followed. The commonest slip, an http:// base URL that a load balancer redirects
// to https://, stops in the preflight naming ZONES_BASE_URL and the address to use, before any zone is
// made: once through the CLI (exit 3, one line), the rest on the launcher's preflight in this process.
// A redirect later in the run is evidence, shown with its Location: the requests of UPDATE-01's example
// test through the client a run builds, in this process.
// The https:// side is trusted (ZONES_CA_FILE), so a client that followed would get answers there: the
// tests check that nothing ever arrived.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { isSuccess } from '../helpers/client/zones-client.ts';
import { BodyFiles } from '../helpers/evidence/bounded-body.ts';
import { formatAnswers, recordExchange } from '../helpers/evidence/evidence.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import { buildReport, renderMarkdown } from '../helpers/report/conformance-report.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { runEntry } from './run-node.ts';
import { type Front, samePathOn, startRedirectFront, startRedirectingFront, startTlsFront } from './support/fronts.ts';
import { clientFor, configFrom, preflightRefusal } from './support/net-in-process.ts';
import { suiteZonesOn } from './support/run-progress.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';
import { makeTestCa, type TestCa } from './support/test-certificates.ts';

const reportsDir = () => mkdtempSync(join(tmpdir(), 'zc-redirect-'));

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

  // Through the CLI once: the refusal is exit 3 with that one line, before any zone is made.
  test('through the CLI: exit 3, the preflight line alone', async () => {
    const redirecting = await front(startRedirectFront(301, samePathOn(httpsFront.url)));
    const run = await runEntry('bin/conformance.ts', [], settingsAt(redirecting.url, reportsDir()));
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(
      `cannot run: GET ${redirecting.url}/admin/api/2026-07/zones.json answered 301, a redirect to ${httpsFront.url}/admin/api/2026-07/zones.json`,
    );
    expect(redirecting.log).toEqual(['GET /admin/api/2026-07/zones.json']);
    expect(httpsFront.log).toEqual([]);
    expect(await suiteZonesOn(reference)).toEqual([]);
  });

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
  // The requests of UPDATE-01's example test through the client a run builds, in this process; its
  // check (toSucceed) is isSuccess, and the report shows each exchange as summarizeExchange writes it.
  test('is evidence, with its Location shown, and is never followed', async () => {
    // Everything reaches the shop but updates, which are sent to the https:// address instead.
    const redirecting = await front(startRedirectingFront(reference.url, 'PUT', 307, samePathOn(httpsFront.url)));
    const config = configFrom(settingsAt(redirecting.url, reportsDir()));
    const { api } = clientFor(config);
    const created = await api.createZone({ name: 'zc-redirect-later', coverage: {} });
    if (!created.read.ok) throw new Error(`the create failed: ${created.exchange.responseBody}`);
    const id = created.read.zone.id;
    const updated = await api.updateZone(id, { name: 'zc-redirect-later-renamed' });

    // The redirect is the answer: not a success, so the rule's check fails on it, and not followed.
    expect(updated.status).toBe(307);
    expect(isSuccess(updated)).toBe(false);
    // The record a run keeps of the exchange: its line in the report's JSON, and in the Markdown beside it.
    const record = recordExchange(updated.exchange, config, new BodyFiles(config.reportsDir, new Secrets(config)), {});
    expect(record.line).toMatch(
      new RegExp(
        `^PUT ${redirecting.url}/admin/api/2026-07/zones/\\d+\\.json \\[valid\\] -> 307 \\(Location: ${httpsFront.url}/admin/api/2026-07/zones/\\d+\\.json\\)`,
      ),
    );
    // What the matcher's failure shows of the answers (formatAnswers), and the certificate's section for the failed test.
    const reason = formatAnswers(updated);
    expect(reason).toContain(`Location: ${httpsFront.url}/admin/api/2026-07/zones/`);
    const outcome = sampleOutcome('UPDATE-01 a zone is renamed', 'failed', { evidence: [record], reason });
    expect(renderMarkdown(buildReport(sampleRunFacts(config, [outcome])))).toContain(
      `(Location: ${httpsFront.url}/admin/api/2026-07/zones/`,
    );
    expect(httpsFront.log, 'no write was replayed at the address the redirect named').toEqual([]);
    expect((await api.deleteZone(id)).status).toBe(200);
    expect(await suiteZonesOn(reference)).toEqual([]);
  });
});
