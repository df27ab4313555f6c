// `npm run sweep`: what earlier runs left on the shop, from ledgers or (--by-prefix) the suite's exact
// name pattern older than the cut-off. Only a ledger's id under a name of its run is proven (--yes).
import { findZone } from '../client/list-lookups.ts';
import { cameBack, ShopUnavailableError } from '../client/shop-transport.ts';
import { isSuccess, type ListAnswer, ZonesClient } from '../client/zones-client.ts';
import type { TargetConfig } from '../config.ts';
import { CannotRunError } from '../exit-codes.ts';
import { deleteAndConfirmGone } from './final-sweep.ts';
import { type Ledger, ledgerAt, ledgersIn, readLedger, stillOwned, sweepReaderLedgerPath } from './ledger.ts';
import { runIdCarriedBy, runIdOfName, runStartOfName } from './run-names.ts';

export interface SweepCandidate {
  id: string;
  name: string;
  /** Where the claim of ownership comes from: a ledger file, or the name pattern. */
  source: string;
  /** not-ours-now: the id carries a name that is not the run's (another run's, somebody else's, or one no ledger records). */
  state: 'present' | 'gone' | 'not-ours-now';
  /** Found by its name, not its id: it goes into the ledger (adopted) before it may be deleted. */
  foundBy?: 'name';
  /** A ledger's id under a name of its run, as every final sweep acts on; a name alone can be anybody's copy. */
  proven: boolean;
}

export interface SweepPlan {
  candidates: SweepCandidate[];
  ledgers: string[];
}

export function ledgerFiles(config: TargetConfig, explicit: readonly string[]): string[] {
  for (const path of explicit) {
    const targets = readLedger(path).map((entry) => ('target' in entry ? entry.target : undefined));
    const elsewhere = [...new Set(targets)].filter((target) => target !== undefined && target !== config.baseUrl);
    // A ledger of another shop (drift's mock, say) names its zones by that shop's ids: asked for by
    // name, it is refused, not read as "nothing to sweep here". Found in a folder, it is skipped by zone.
    if (elsewhere.length > 0)
      throw new CannotRunError(
        `the ledger ${path} records zones made on ${elsewhere.join(', ')}, not on ZONES_BASE_URL (${config.baseUrl}): set ZONES_BASE_URL and ZONES_ACCESS_TOKEN to that target`,
      );
  }
  return explicit.length > 0 ? [...explicit] : ledgersIn(config.reportsDir);
}

/** `outageBudgetMs`: how long the first list read waits for a shop that does not answer for itself. */
export async function planSweep(
  config: TargetConfig,
  options: { ledgers: string[]; byPrefix: boolean; olderThanMs: number; outageBudgetMs: number },
): Promise<SweepPlan> {
  const { outageBudgetMs } = options;
  const reader = new ZonesClient(config, {
    ledger: ledgerAt(sweepReaderLedgerPath(config.reportsDir)),
    outageBudgetMs,
  });
  let list: ListAnswer;
  try {
    list = await reader.listZones();
  } catch (error) {
    if (error instanceof ShopUnavailableError && error.exchange.status !== undefined)
      throw new CannotRunError(
        `the shop at ZONES_BASE_URL (${config.baseUrl}) is not answering for itself: ${cameBack(error.exchange)}, and the same after ${outageBudgetMs / 1000} s of asking again. Nothing was deleted; run the sweep again once the shop answers`,
      );
    throw new CannotRunError(`cannot reach the target at ${reader.collectionUrl()}: ${(error as Error).message}`);
  }
  if (!isSuccess(list) || !list.read.ok) {
    throw new CannotRunError(
      `cannot read the zone list at ${reader.collectionUrl()} (status ${list.status}${list.read.ok ? '' : `, ${list.read.problem}`})`,
    );
  }
  const zones = list.read.zones;
  const candidates = new Map<string, SweepCandidate>();
  // The first claim on an id stands: a ledger's before a name's.
  const offer = (candidate: SweepCandidate) => {
    if (!candidates.has(candidate.id)) candidates.set(candidate.id, candidate);
  };
  for (const path of options.ledgers) {
    for (const [id, names] of stillOwned(readLedger(path), config.baseUrl)) {
      const zone = findZone(zones, { text: id });
      const state = zone === undefined ? 'gone' : isStillTheRuns(zone.name, names) ? 'present' : 'not-ours-now';
      // The name it is deleted under, or the last one the run gave it.
      const name = state === 'present' ? String(zone!.name) : names[names.length - 1]!;
      offer({ id, name, source: path, state, proven: state === 'present' });
    }
  }
  // Zones a run made but could not read an id of (a wrong ZONES_ID_FIELD): the ledger has their unique
  // names, and with settings that read ids, the list shows which zone carries each one.
  for (const path of options.ledgers) {
    for (const entry of readLedger(path)) {
      if (entry.event !== 'named' || (entry.target ?? config.baseUrl) !== config.baseUrl) continue;
      const [zone, ...others] = zones.filter((each) => each.name === entry.name);
      if (zone && others.length === 0)
        offer({ id: zone.id.text, name: entry.name, source: path, state: 'present', foundBy: 'name', proven: false });
    }
  }
  if (options.byPrefix) {
    const cutoff = Date.now() - options.olderThanMs;
    for (const zone of zones) {
      const started = runStartOfName(zone.name);
      if (started && started.getTime() < cutoff) {
        const source = `name pattern, run started ${started.toISOString()}`;
        offer({ id: zone.id.text, name: String(zone.name), source, state: 'present', proven: false });
      }
    }
  }
  return { candidates: [...candidates.values()], ledgers: options.ledgers };
}

/**
 * Whether the zone under a ledger's id is still the run's (a store may have given the id away since): it
 * carries a name of the same run, in the suite's pattern or one the run gave this id holding the run's
 * unique name (ROBUST-06's adds words), since a plain name such as "Berlin" could be anyone's.
 */
function isStillTheRuns(current: unknown, names: string[]): boolean {
  const run = runIdOfName(names[0]);
  if (run === undefined || typeof current !== 'string') return false;
  if (runIdOfName(current) === run) return true;
  return names.includes(current) && runIdCarriedBy(current) === run;
}

export interface SweepOutcome {
  deleted: SweepCandidate[];
  failed: { candidate: SweepCandidate; reason: string }[];
}

/** Gone candidates are marked deleted in their ledgers. */
export async function carryOutSweep(
  config: TargetConfig,
  plan: SweepPlan,
  sweepLedgerPath: string,
): Promise<SweepOutcome> {
  const outcome: SweepOutcome = { deleted: [], failed: [] };
  const sweepLedger = ledgerAt(sweepLedgerPath);
  for (const candidate of plan.candidates) {
    const fromLedger = plan.ledgers.includes(candidate.source);
    const ledger: Ledger = fromLedger ? ledgerAt(candidate.source) : sweepLedger;
    if (candidate.state === 'gone') ledger.record({ event: 'deleted', id: candidate.id });
    if (candidate.state !== 'present') continue;
    const { id, name } = candidate;
    const adopt = (why: string) => ledger.record({ event: 'adopted', id, name, why, target: config.baseUrl });
    if (!fromLedger) adopt(candidate.source);
    if (candidate.foundBy === 'name') adopt('found by the unique name its run recorded');
    const removal = await deleteAndConfirmGone(new ZonesClient(config, { ledger }), { text: candidate.id });
    if (removal.gone) outcome.deleted.push(candidate);
    else outcome.failed.push({ candidate, reason: removal.why });
  }
  return outcome;
}

/** "24h", "90m", "2d", "3600s" in milliseconds. */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)(s|m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}
