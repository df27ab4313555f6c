// What a run in a child process has done so far, read from outside it: the zones its ledger says it
// made, and the suite's zones still on the target. Tests that stop a run midway need both.
import { ledgersIn, readLedger } from '../../helpers/ownership/ledger.ts';
import type { RunningReference } from '../../reference/server.ts';
import type { StartedEntry } from '../run-node.ts';

export function createdSoFar(reportsDir: string): number {
  return ledgersIn(reportsDir)
    .flatMap(readLedger)
    .filter((e) => e.event === 'created').length;
}

/**
 * Waits until the run has made `zones` zones, or has ended without. No deadline of its own: on a slow
 * or busy machine the run only gets there later, and a run that hangs is ended by its child limit.
 */
export async function untilCreated(run: StartedEntry, reportsDir: string, zones: number): Promise<number> {
  const running = () => run.child.exitCode === null && run.child.signalCode === null;
  while (createdSoFar(reportsDir) < zones && running()) await new Promise((r) => setTimeout(r, 20));
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
