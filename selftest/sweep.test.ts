// `npm run sweep` deletes only what the suite made. With no options, the zones in earlier runs'
// ledgers that still carry their runs' names; zones of the suite's exact name pattern older than the
// cut-off (--by-prefix) are guesses by name, listed unless --yes. --dry-run deletes nothing.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { settingsForStyle } from '../bin/reference-settings.ts';
import { ZonesClient } from '../helpers/client/zones-client.ts';
import { readTargetConfig } from '../helpers/config.ts';
import { Ledger, runLedgerPath } from '../helpers/ownership/ledger.ts';
import { ledgerFiles } from '../helpers/ownership/leftover-sweep.ts';
import { runStartOfName, zoneName } from '../helpers/ownership/run-names.ts';
import { newRunId, PREFLIGHT_OUTAGE_BUDGET_MS } from '../helpers/runner/certify.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { runEntry } from './run-node.ts';
import { startOutageFront } from './support/fronts.ts';
import { cannotRunReason } from './support/net-in-process.ts';

let reference: RunningReference;
let dir: string;
let env: Record<string, string>;

async function names(): Promise<string[]> {
  const answer = await fetch(`${reference.url}/admin/api/2026-07/zones.json`, {
    headers: { [reference.style.authHeader]: reference.token },
  });
  return ((await answer.json()) as { zones: { name: string }[] }).zones.map((z) => z.name).sort();
}

/** A zone made behind the suite's back, as another user of the shop would. */
async function makeZone(name: string): Promise<void> {
  await fetch(`${reference.url}/admin/api/2026-07/zones.json`, {
    method: 'POST',
    headers: { [reference.style.authHeader]: reference.token, 'content-type': 'application/json' },
    body: JSON.stringify({ zone: { name, coverage: {} } }),
  });
}

const threeDaysAgo = newRunId(new Date(Date.now() - 3 * 86_400_000));
const oldRunZone = zoneName(threeDaysAgo, 'beef', 1);
const recentRunZone = zoneName(newRunId(), 'beef', 2);
const lookalike = `${oldRunZone}-copy`;

beforeEach(async () => {
  reference = await startReference({ token: 'tok-sweep' });
  dir = mkdtempSync(join(tmpdir(), 'zc-sweep-'));
  env = { ...settingsForStyle(reference.style, reference.url, reference.token), ZONES_REPORTS_DIR: dir };
  // A crashed run: two zones in its ledger, never deleted.
  const config = readTargetConfig(env);
  const ledger = new Ledger(runLedgerPath(dir, threeDaysAgo));
  const api = new ZonesClient(config, { ledger });
  await api.createZone({ name: zoneName(threeDaysAgo, 'cafe', 1), coverage: {} });
  await api.createZone({ name: zoneName(threeDaysAgo, 'cafe', 2), coverage: {} });
  for (const name of ['shop-zone-berlin', oldRunZone, recentRunZone, lookalike]) await makeZone(name);
});
afterEach(() => reference.close());

/** The error `refused` throws; a call that goes through fails the test. */
test('the suite can read the age back from the names it gives', () => {
  expect(runStartOfName(oldRunZone)?.getTime()).toBeLessThan(Date.now() - 2 * 86_400_000);
  expect(runStartOfName(lookalike)).toBeUndefined();
  expect(runStartOfName('shop-zone-berlin')).toBeUndefined();
});

test('--dry-run deletes nothing, and prints the plan', async () => {
  const before = await names();
  const run = await runEntry('bin/sweep.ts', ['--dry-run'], env);
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/would delete .*cafe-1/);
  expect(run.stdout).toContain('dry run');
  expect(await names()).toEqual(before);
});

test('a plain sweep deletes what the ledgers list, and nothing else', async () => {
  const run = await runEntry('bin/sweep.ts', [], env);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toContain('deleted 2, could not delete 0');
  expect(await names()).toEqual([lookalike, oldRunZone, recentRunZone, 'shop-zone-berlin'].sort());
});

test('--by-prefix without --yes only lists the zones it finds by their name', async () => {
  const run = await runEntry('bin/sweep.ts', ['--by-prefix', '--older-than', '24h'], env);
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout).toMatch(new RegExp(`would delete \\S+ ${oldRunZone} \\(name pattern`));
  expect(run.stdout).toContain('not deleted: 1 zone(s) known by their name alone');
  expect(await names()).toEqual([lookalike, oldRunZone, recentRunZone, 'shop-zone-berlin'].sort());
});

test('--by-prefix --yes also deletes the exact pattern, only from runs older than --older-than', async () => {
  const run = await runEntry('bin/sweep.ts', ['--yes', '--by-prefix', '--older-than', '24h'], env);
  expect(run.code).toBe(0);
  expect(await names()).toEqual([lookalike, recentRunZone, 'shop-zone-berlin'].sort());
});

test('a bad --older-than, or --yes with --dry-run, is refused with exit 3', async () => {
  const bad = await runEntry('bin/sweep.ts', ['--older-than', 'yesterday'], env);
  expect(bad.code).toBe(3);
  expect(bad.stderr).toMatch(/--older-than/);
  const both = await runEntry('bin/sweep.ts', ['--yes', '--dry-run'], env);
  expect(both.code).toBe(3);
  expect(both.stderr).toMatch(/--yes and --dry-run/);
  expect((await names()).length).toBe(6);
});

test('--ledger names one ledger: a sweep of it deletes a zone the run renamed itself; an id under a name the run never gave it, or under a name that holds no name of the run, is left', async () => {
  const runId = newRunId(new Date(Date.now() - 86_400_000));
  const ledger = new Ledger(runLedgerPath(dir, runId));
  const api = new ZonesClient(readTargetConfig(env), { ledger });
  const made = async (n: number) => {
    const answer = await api.createZone({ name: zoneName(runId, 'f00d', n), coverage: {} });
    if (!answer.read.ok) throw new Error(answer.read.problem);
    return answer.read.zone.id;
  };
  // As ROBUST-06 renames: the run's unique name, then words in other scripts.
  const renamed = await made(1);
  await api.updateZone(renamed, { name: `${zoneName(runId, 'f00d', 9)} Ζώνη 区域 🚚`, coverage: {} });
  // Renamed behind the suite's back, as if the id now held somebody else's zone.
  const takenOver = await made(2);
  await fetch(`${reference.url}/admin/api/2026-07/zones/${takenOver.text}.json`, {
    method: 'PUT',
    headers: { [reference.style.authHeader]: reference.token, 'content-type': 'application/json' },
    body: JSON.stringify({ zone: { name: 'shop-zone-paris' } }),
  });
  // A name the run did give, but one anybody could: it proves nothing about whose zone the id is now.
  const plain = await made(3);
  await api.updateZone(plain, { name: 'Berlin', coverage: {} });

  const run = await runEntry('bin/sweep.ts', ['--ledger', ledger.path], env);
  expect(run.code, run.stderr).toBe(0);
  expect(reference.backdoor.stored(renamed.text)).toBeUndefined();
  expect(reference.backdoor.stored(takenOver.text)?.name).toBe('shop-zone-paris');
  expect(reference.backdoor.stored(plain.text)?.name).toBe('Berlin');
  expect(run.stdout).toContain(`leaving ${takenOver.text}: `);
  expect(run.stdout).toContain(`leaving ${plain.text}: `);
  // The crashed run's ledger beside it in the folder was not read: its zones are still there.
  expect(await names()).toEqual(
    expect.arrayContaining([zoneName(threeDaysAgo, 'cafe', 1), zoneName(threeDaysAgo, 'cafe', 2)]),
  );
  // A ledger that is not there names no zone: nothing to sweep, not a failure (a run that stopped before its first create).
  const before = await names();
  const missing = await runEntry('bin/sweep.ts', ['--yes', '--ledger', join(dir, 'no-such.jsonl')], env);
  expect(missing.code, missing.stderr).toBe(0);
  expect(await names()).toEqual(before);
});

// Refused where the ledgers are read, before any request; the refusal leaves as every other one does,
// exit 3 in one line (the shop that answers 503, below, is refused through the same catch).
test("a ledger of zones made on another target is refused by name, in one line: drift's mock ledger in a shell aimed at the service", () => {
  // ledgerFiles reads ledgers and sends nothing: the other target needs an address, not a server.
  const otherConfig = readTargetConfig({
    ZONES_BASE_URL: 'http://127.0.0.1:9',
    ZONES_ACCESS_TOKEN: 'tok-other-shop',
    ZONES_REPORTS_DIR: dir,
  });
  const refusal = cannotRunReason(() => ledgerFiles(otherConfig, [runLedgerPath(dir, threeDaysAgo)]));
  expect(refusal.split('\n')).toHaveLength(1);
  expect(refusal).toContain(`records zones made on ${reference.url}`);
  expect(refusal).toContain('not on ZONES_BASE_URL (http://127.0.0.1:9)');
});

test("a shop that answers 503 to everything is told in the preflight's few seconds, not ZONES_OUTAGE_BUDGET_MS: exit 3 in one line naming ZONES_BASE_URL", async () => {
  // Retry-After of two minutes: kept only up to the budget the sweep gives the shop.
  const down = await startOutageFront(reference.url, { after: 0, retryAfter: '120' });
  try {
    const before = await names();
    const downEnv = { ...env, ZONES_BASE_URL: down.url, ZONES_OUTAGE_BUDGET_MS: '20000' };
    const run = await runEntry('bin/sweep.ts', ['--yes'], downEnv);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(
      /^zones-sweep: cannot run: the shop at ZONES_BASE_URL \(http:\S+\) is not answering for itself: GET http:\S+zones\.json answered 503 Service Unavailable \(text\/html; charset=utf-8, a page titled "Back soon"\)/,
    );
    expect(run.stderr).toContain(`ZONES_BASE_URL (${down.url})`);
    // The budget it waited is the preflight's, not the 20 s of the setting.
    expect(run.stderr).toContain(`, and the same after ${PREFLIGHT_OUTAGE_BUDGET_MS / 1000} s of asking again.`);
    expect(down.log.every((line) => line.startsWith('GET '))).toBe(true);
    expect(await names()).toEqual(before);
  } finally {
    await down.close();
  }
});
