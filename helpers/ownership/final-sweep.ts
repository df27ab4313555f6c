// The final sweep, after the suites and on SIGINT or SIGTERM: whatever the ledger holds undeleted is deleted now.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listedZone, readableZones, zonesOf } from '../client/list-lookups.ts';
import type { ZoneId } from '../client/records.ts';
import { isSuccess, type ListAnswer, ZonesClient } from '../client/zones-client.ts';
import type { TargetConfig } from '../config.ts';
import { operatorTargetPrefix, shellQuote } from '../evidence/replay.ts';
import { emptyTally, type RequestTally } from '../evidence/request-tally.ts';
import { BOOKED_WITHOUT_HOOK } from './booking-hooks.ts';
import type { CleanupRecord, LeftZone } from './cleanup-record.ts';
import { ledgerAt, readLedger, stillOwned } from './ledger.ts';
import { runIdOfName } from './run-names.ts';

type Removal = { gone: true } | { gone: false; why: string };

/**
 * How the tear-down and both sweeps remove a zone. A DELETE that fails may still have done the work (a 404
 * for a zone already gone, a 5xx after the delete), so the list decides: gone once a readable list lacks it.
 */
export async function deleteAndConfirmGone(api: ZonesClient, id: ZoneId): Promise<Removal> {
  try {
    const answer = await api.deleteZone(id);
    if (isSuccess(answer)) return { gone: true };
    const list = await api.listZones();
    const unread = readableZones(list) === undefined ? ', and the list cannot be read to see whether it went' : '';
    const why = unread || (listedZone(list, id) ? ' and the zone is still listed' : '');
    if (why !== '') return { gone: false, why: `DELETE answered ${answer.status}${why}` };
    api.ledger.record({ event: 'deleted', id: id.text });
    return { gone: true };
  } catch (error) {
    return { gone: false, why: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
}

export async function sweepLedger(
  config: TargetConfig,
  ledgerPath: string,
  runId: string,
  targetVariables?: string,
): Promise<CleanupRecord & { tally: RequestTally }> {
  const ledger = ledgerAt(ledgerPath);
  const tally = emptyTally();
  const api = new ZonesClient(config, { ledger, tallyFor: () => tally });
  const entries = readLedger(ledgerPath);
  const lastLeftReason = new Map<string, string>();
  for (const entry of entries) if (entry.event === 'left') lastLeftReason.set(entry.id, entry.reason);
  const leftBehind: LeftZone[] = [];
  // The embedded reference goes when the run ends, and what it held with it: there is nothing to sweep.
  const removeWith = config.embedded ? {} : { removeWith: sweepCommand(ledgerPath, process.cwd(), targetVariables) };

  for (const [id, names] of stillOwned(entries, config.baseUrl)) {
    // Deleting it again would only be refused again: the booking history is still there.
    const booked = lastLeftReason.get(id) === BOOKED_WITHOUT_HOOK;
    const removal = booked ? { gone: false, why: BOOKED_WITHOUT_HOOK } : await deleteAndConfirmGone(api, { text: id });
    if (removal.gone) continue;
    leftBehind.push({ id, name: names[names.length - 1], reason: removal.why, ...removeWith });
    if (!booked) ledger.record({ event: 'left', id, reason: removal.why });
  }
  leftBehind.push(...(await namedButNotOwned(api, runId)));
  const created = entries.filter((entry) => entry.event === 'created' || entry.event === 'adopted').length;
  return { created, deleted: created - leftBehind.length, leftBehind, tally };
}

/**
 * Zones that carry this run's name but never reached the ledger (a create whose answer was lost, an
 * update applied to a zone not ours) are reported, not deleted: a name alone proves nothing.
 */
async function namedButNotOwned(api: ZonesClient, runId: string): Promise<LeftZone[]> {
  const ledger = api.ledger;
  // An id whose last word in the ledger is its delete, listed again under this run's name, came back.
  const strays = (list: ListAnswer) =>
    zonesOf(list).filter(
      (zone) => runIdOfName(zone.name) === runId && (!ledger.owns(zone.id.text) || ledger.isDeleted(zone.id.text)),
    );
  // A list that lags behind writes may still show what was just deleted: that is not a zone left behind.
  const deletedStillShown = (list: ListAnswer) => strays(list).some((zone) => ledger.isDeleted(zone.id.text));
  try {
    const list = await api.listZones({ settle: (l) => !deletedStillShown(l) });
    return strays(list).map((zone) => ({
      id: zone.id.text,
      name: String(zone.name),
      reason: ledger.isDeleted(zone.id.text)
        ? `carries this run's name (${String(zone.name)}) and is listed again after this run deleted it; not deleted again, check it by hand`
        : `carries this run's name (${String(zone.name)}) but is not in the ledger; not deleted, check it by hand`,
      // No sweep deletes by a name alone what no ledger holds: a person decides.
      removeWith: null,
    }));
  } catch {
    return [];
  }
}

/** A script that starts the sweep: this package's own ("node bin/zones-conformance.mjs sweep") or an installer's ("zones-conformance sweep"). */
const SWEEP_SCRIPT = /\bzones-conformance(?:\.mjs)?\s+sweep\b/;

/** `npm run sweep --` where the folder's package.json has a sweep script that runs this one, else the installed command. */
function sweepLauncher(folder: string): string {
  try {
    const sweep = (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { scripts?: { sweep?: unknown } })
      .scripts?.sweep;
    if (typeof sweep === 'string' && SWEEP_SCRIPT.test(sweep)) return 'npm run sweep --';
  } catch {
    // No package.json there, or one that can't be read: the installed command needs neither.
  }
  return 'npx zones-conformance sweep';
}

/** Quoted only when it has to be. */
export function shellWord(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) ? word : shellQuote(word);
}

/**
 * The command printed beside every zone left behind, to run from where the run ran. It names the run's own
 * ledger, so it deletes this run's zones only and needs no `--yes` (which would add guesses by name). In
 * drift's mock run it names the mock's address and token: the operator's ZONES_BASE_URL is the service.
 */
export function sweepCommand(ledgerPath: string, folder = process.cwd(), targetVariables?: string): string {
  return `${operatorTargetPrefix(targetVariables)}${sweepLauncher(folder)} --ledger ${shellWord(ledgerPath)}`;
}
