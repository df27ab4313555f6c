// What a run in a child process has done so far, read from outside it: the zones its ledger says it
// made, and the suite's zones still on the target. Tests that stop a run midway need both.
import { ledgersIn, readLedger } from '../../helpers/ownership/ledger.ts';
import type { RunningReference } from '../../reference/server.ts';

export function createdSoFar(reportsDir: string): number {
  return ledgersIn(reportsDir)
    .flatMap(readLedger)
    .filter((e) => e.event === 'created').length;
}

export async function untilCreated(reportsDir: string, zones: number, timeoutMs = 60_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (createdSoFar(reportsDir) < zones && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return createdSoFar(reportsDir);
}

/** The zones named like the suite's (zc-...) that the reference still holds. */
export async function suiteZonesOn(reference: RunningReference): Promise<string[]> {
  const list = await fetch(`${reference.url}/admin/api/2026-07/zones.json`, {
    headers: { [reference.style.authHeader]: reference.token },
  });
  const { zones } = (await list.json()) as { zones: { name: string }[] };
  return zones.map((zone) => zone.name).filter((name) => name.startsWith('zc-'));
}
