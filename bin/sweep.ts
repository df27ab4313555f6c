// `npm run sweep`: delete zones that earlier runs left behind (a crash, a kill, a booked zone whose
// history has since been removed, a shop that refused), as USAGE says.
import { loadEnvironment, readTargetConfig } from '../helpers/config.ts';
import { insecureWarning } from '../helpers/connection/transport.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import { EXIT } from '../helpers/exit-codes.ts';
import { sweepLedgerPath } from '../helpers/ownership/ledger.ts';
import {
  carryOutSweep,
  ledgerFiles,
  parseDuration,
  planSweep,
  type SweepCandidate,
} from '../helpers/ownership/leftover-sweep.ts';
import { outliveOutputReaders } from '../helpers/report/console-output.ts';
import { newRunId, PREFLIGHT_OUTAGE_BUDGET_MS } from '../helpers/runner/certify.ts';
import { leaveCannotRun, readCommandLine } from './command-options.ts';

const USAGE = `Usage: npm run sweep -- [--ledger PATH]... [--by-prefix [--older-than 24h]] [--yes] [--dry-run]

Deletes zones that earlier runs of zones-conformance created and left on the target named by
ZONES_BASE_URL and ZONES_ACCESS_TOKEN (the same settings as npm run conformance).

With no options it deletes each zone a run's ledger proves the run's own: the ledger lists its id,
and the zone under that id still carries a name of the same run (the suite's exact pattern with the
run's id, or a name the run itself gave that id). That is what every run's final sweep deletes. An
id whose zone now carries any other name may have gone to somebody else's zone: it is left, and
said so. A run still under way keeps its ledger there too: don't sweep its reports folder meanwhile.

A zone known by its name alone is only listed unless you add --yes: the zones --by-prefix finds,
and a zone whose id its run could not read (a wrong ZONES_ID_FIELD). A name can be copied.

  --ledger PATH     a run's ledger (repeatable); default: every ledger in $ZONES_REPORTS_DIR/ledgers
  --by-prefix       also zones named by the suite's exact pattern zc-<run id>-<tag>-<n>, in no ledger
  --older-than AGE  with --by-prefix, only runs older than this (default 24h; e.g. 90m, 2d)
  --yes             also delete the zones known by their name alone
  --dry-run         delete nothing; list what would be deleted
  --help            this text

Exit codes: ${EXIT.ok} done, ${EXIT.failed} some zone could not be deleted, ${EXIT.cannotRun} could not run.`;

/** What the shop answered is quoted in the output (names, reasons), so every line is masked. */
let secrets = new Secrets({ token: '' });
const say = (line: string) => console.log(secrets.mask(line));

function cannotRun(message: string): never {
  return leaveCannotRun(secrets.mask(`zones-sweep: cannot run: ${message}`));
}

async function main(): Promise<void> {
  outliveOutputReaders();
  const args = readCommandLine(
    {
      ledger: { type: 'string', multiple: true },
      'by-prefix': { type: 'boolean' },
      'older-than': { type: 'string' },
      yes: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
    },
    USAGE,
    cannotRun,
  );
  if (!args) return;
  // Which of the two was meant can't be told, and guessing "delete" is the one that can't be undone.
  if (args.yes && args['dry-run']) cannotRun('--yes and --dry-run contradict each other: give one of them');
  const olderThanMs = parseDuration(args['older-than'] ?? '24h');
  if (olderThanMs === undefined)
    cannotRun(`--older-than must look like 24h, 90m, 2d or 3600s (got "${args['older-than']}")`);

  const env = loadEnvironment();
  secrets = new Secrets({ token: env.ZONES_ACCESS_TOKEN?.trim() ?? '' });
  // A setting refused (ConfigError) ends main, whose catch says it as "cannot run".
  const config = readTargetConfig(env);
  secrets = new Secrets(config);
  if (config.embedded) cannotRun('ZONES_BASE_URL is not set: there is no shop to sweep');
  const warning = insecureWarning(config);
  if (warning) console.error(`zones-sweep: ${warning}`);

  const ledgers = ledgerFiles(config, args.ledger ?? []);
  // A shop that does not answer for itself is told in the preflight's few seconds, not the run's budget.
  const outageBudgetMs = Math.min(PREFLIGHT_OUTAGE_BUDGET_MS, config.outageBudgetMs);
  const plan = await planSweep(config, { ledgers, byPrefix: args['by-prefix'] ?? false, olderThanMs, outageBudgetMs });
  const present = plan.candidates.filter((c) => c.state === 'present');
  const dryRun = args['dry-run'] ?? false;
  const deletes = (c: SweepCandidate) => !dryRun && (c.proven || (args.yes ?? false));
  for (const c of plan.candidates.filter((c) => c.state === 'not-ours-now'))
    say(`  leaving ${c.id}: the ledger names it ${c.name}, but that id now carries another name`);
  say(
    `zones-sweep: ${ledgers.length} ledger(s) read; ${present.length} zone(s) of earlier runs still on ${config.baseUrl}`,
  );
  for (const c of present) say(`  ${deletes(c) ? 'deleting' : 'would delete'} ${c.id} ${c.name} (${c.source})`);
  if (dryRun) {
    if (present.length > 0) say('dry run: nothing was deleted');
    return;
  }
  const guesses = present.filter((c) => !deletes(c));
  // Candidates that are gone stay in the plan: the sweep marks them deleted in their ledgers.
  const acted = { ...plan, candidates: plan.candidates.filter((c) => c.state !== 'present' || deletes(c)) };
  const outcome = await carryOutSweep(config, acted, sweepLedgerPath(config.reportsDir, newRunId()));
  for (const { candidate, reason } of outcome.failed) say(`  left ${candidate.id} ${candidate.name}: ${reason}`);
  say(`zones-sweep: deleted ${outcome.deleted.length}, could not delete ${outcome.failed.length}`);
  if (guesses.length > 0)
    say(`not deleted: ${guesses.length} zone(s) known by their name alone, listed above; add --yes to delete them`);
  if (outcome.failed.length > 0) process.exitCode = EXIT.failed;
}

main().catch((error: unknown) => cannotRun(error instanceof Error ? error.message : String(error)));
