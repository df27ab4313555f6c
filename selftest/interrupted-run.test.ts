// A run killed with SIGINT or SIGTERM partway through stops its tests, deletes every zone it made
// (the ledger sweep), and exits with the signal's code: nothing of its own stays on the shop.
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { readLedger } from '../helpers/ledger.ts';
import { startReference } from '../reference/server.ts';
import { startEntry } from './run-node.ts';

async function createdSoFar(dir: string): Promise<number> {
  const ledgers = join(dir, 'ledgers');
  if (!existsSync(ledgers)) return 0;
  return readdirSync(ledgers).flatMap((f) => readLedger(join(ledgers, f))).filter((e) => e.event === 'created').length;
}

test.for([['SIGINT', 130], ['SIGTERM', 143]] as const)('a run stopped by %s leaves no zone of its own behind', async ([signal, code]) => {
  const reference = await startReference({ token: 'tok-interrupted' });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'zc-killed-'));
    const env = { ...settingsForStyle(reference.style, reference.url, reference.token), ...bookingHooksForReference(), ZONES_REPORTS_DIR: dir };
    const run = startEntry('bin/conformance.ts', [], env);
    const deadline = Date.now() + 60_000;
    while ((await createdSoFar(dir)) < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    run.child.kill(signal);
    const ended = await run.done;

    expect(await createdSoFar(dir), 'the run had made zones before it was stopped').toBeGreaterThanOrEqual(4);
    expect(ended.code).toBe(code);
    expect(ended.stderr).toContain(`${signal}: stopping the tests, then deleting this run's zones`);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
    expect(report.suiteErrors).toContain(`the run was stopped by ${signal} before every test had run`);
    expect(report.cleanup.leftBehind).toEqual([]);
    const list = await fetch(`${reference.url}/admin/api/2026-07/zones.json`, { headers: { [reference.style.authHeader]: reference.token } });
    const { zones } = (await list.json()) as { zones: { name: string }[] };
    expect(zones.filter((zone) => zone.name.startsWith('zc-'))).toEqual([]);
  } finally {
    await reference.close();
  }
});
