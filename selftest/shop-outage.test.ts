// A shop in maintenance is not a non-conformant shop. Behind a front that answers 503 with an HTML
// "Back soon" page, the launcher stops in its preflight with exit 3 and says what came back (its
// preflight, in process); a shop that goes down partway through a run and stays down is waited for
// within ZONES_OUTAGE_BUDGET_MS, then the run stops as could-not-complete, with no rule failed on a
// gateway's answer (a run of the CLI). A sign-in front's page in the middle of a run is the same
// outage to the tests' client (in process).
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { settingsForStyle } from '../bin/reference-settings.ts';
import { ShopUnavailableError } from '../helpers/client/shop-transport.ts';
import { classify } from '../helpers/judging/verdict.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { HISTORY_FILE } from '../helpers/report/history.ts';
import { startReference } from '../reference/server.ts';
import { runEntry } from './run-node.ts';
import { type OutageFront, startOutageFront } from './support/fronts.ts';
import { clientFor, configFrom, preflightRefusal } from './support/net-in-process.ts';

const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing.splice(0)) await close();
});

async function reference() {
  const running = await startReference();
  closing.push(() => running.close());
  return running;
}

async function front(upstream: string, options: Parameters<typeof startOutageFront>[1]): Promise<OutageFront> {
  const started = await startOutageFront(upstream, options);
  closing.push(started.close);
  return started;
}

const readJson = (dir: string) => JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));

// The launcher's preflight, in this process: its reason is the line a run prints before exit 3, and the
// reason its could-not-run report gives (that wiring is shown through the CLI in tls.test.ts).
test('a shop answering every request 503 with a maintenance page stops the preflight, naming what came back', async () => {
  const shop = await reference();
  // Retry-After of two minutes: the preflight keeps it only up to its own few seconds.
  const down = await front(shop.url, { after: 0, retryAfter: '120' });
  const reason = await preflightRefusal(settingsForStyle(shop.style, down.url, shop.token));

  expect(reason).toMatch(
    /^the shop is not answering for itself: GET http:\S+zones\.json answered 503 Service Unavailable \(text\/html; charset=utf-8, a page titled "Back soon"\)/,
  );
  // Asked again within the preflight's few seconds, not for the run's budget nor the Retry-After:
  // the first GET, and one more when the capped wait is over.
  expect(down.log.length).toBeGreaterThanOrEqual(2);
  expect(down.log.length).toBeLessThanOrEqual(6);
  expect(down.log.every((line) => line.startsWith('GET '))).toBe(true);
});

test('a shop that goes down after 60 requests and stays down: exit 3, could-not-complete, and no rule failed on a gateway answer', async () => {
  const shop = await reference();
  const down = await front(shop.url, { after: 60 });
  const dir = mkdtempSync(join(tmpdir(), 'zc-outage-'));
  const budgetMs = 2_000;
  const run = await runEntry('bin/conformance.ts', [], {
    ...settingsForStyle(shop.style, down.url, shop.token),
    ZONES_REPORTS_DIR: dir,
    ZONES_MODEL_RUNS: '0',
    ZONES_OUTAGE_BUDGET_MS: String(budgetMs),
  });
  const report = readJson(dir) as ConformanceReport;

  expect(run.code, run.stderr).toBe(3);
  expect(report.verdict).toBe('could-not-complete');
  expect(report.exitCode).toBe(3);
  // The reference is correct: any failure could only have come from the front's 503s.
  expect(report.rules.filter((rule) => rule.status === 'failed' || rule.status === 'warning')).toEqual([]);
  expect(report.outage).toMatchObject({
    budgetMs,
    what: expect.stringContaining(
      'answered 503 Service Unavailable (text/html; charset=utf-8, a page titled "Back soon")',
    ),
  });
  expect(Date.parse(report.outage!.since)).toBeGreaterThan(Date.parse(report.startedAt));
  // What was decided in the first 60 requests stands; the rest say why they were not.
  expect(report.rules.filter((rule) => rule.status === 'passed').length).toBeGreaterThan(0);
  const notReached = report.rules.filter((rule) => rule.reason?.startsWith('not reached: the shop stopped answering'));
  expect(notReached.length).toBeGreaterThan(0);
  expect(run.stderr).toContain(`could not complete: the shop stopped answering for itself at ${report.outage!.since}`);
  // No verdict on the shop, so no night of it: kept, it would be the next night's "night before".
  expect(existsSync(join(dir, HISTORY_FILE))).toBe(false);
  expect(readFileSync(join(dir, 'conformance.html'), 'utf8')).toContain(
    'tonight is not kept there: a run the shop went away from partway gave no verdict on it',
  );
  // The run stopped once the budget was spent: the tests after it did not each wait out a budget of
  // their own. One budget is at most a dozen GETs (back-off from 0.5 s); a few more go out while the
  // stop reaches the worker and for the clean-up, each sent once.
  expect(down.unavailable.length, down.unavailable.join('\n')).toBeLessThanOrEqual(30);
});

// The same stop, for a front's sign-in page instead of a gateway's 503: what differs is only how the
// client tells the page from the shop's answer, so the client a test gets shows it in this process,
// and the run it would stop is the one above.
test("a sign-in front that starts answering 200 with its HTML page in the middle of a run: the tests' client waits it out as an outage, and no check gets its page", async () => {
  const shop = await reference();
  const page =
    '<!DOCTYPE html>\n<html><head><title>Sign in to Example SSO</title></head><body><form action="/login"></form></body></html>\n';
  // Two answers of the shop, then the page for good.
  const signIn = await front(shop.url, { after: 2, status: 200, page });
  const config = configFrom({
    ...settingsForStyle(shop.style, signIn.url, shop.token),
    ZONES_OUTAGE_BUDGET_MS: '1000',
  });
  const { api, sent } = clientFor(config);
  expect((await api.listZones()).status).toBe(200);
  expect((await api.listZones()).status).toBe(200);
  const error = await api.listZones().catch((thrown: unknown) => thrown);

  expect(error).toBeInstanceOf(ShopUnavailableError);
  const outage = (error as ShopUnavailableError).outage;
  expect(outage.spent).toBe(true);
  expect(outage.what).toContain('answered 200 OK (text/html; charset=utf-8, a page titled "Sign in to Example SSO")');
  // Asked again while the budget lasted, as a gateway's 503 is.
  expect(signIn.unavailable.length).toBeGreaterThan(1);
  expect(sent.filter((exchange) => exchange.status === 200 && exchange.notJson !== undefined)).toHaveLength(
    signIn.unavailable.length,
  );
  // The reference behind it is correct: a check that met the page is not verified, never failed.
  const judged = classify({
    state: 'failed',
    requests: sent.length,
    errorName: (error as Error).name,
    errorMessage: (error as Error).message,
  });
  expect(judged.state).toBe('not-verified');
  expect(api.transport.spentOutage()).toMatchObject({ what: outage.what });
});
