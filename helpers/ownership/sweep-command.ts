// The command that removes what a run left, printed beside every zone left behind, which must run as
// printed from where the run ran. It names the run's own ledger, so it deletes this run's zones only,
// and finds them wherever ZONES_REPORTS_DIR pointed, even when only the run's command set it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { operatorTargetPrefix } from '../evidence/operator-variables.ts';
import { shellQuote } from '../evidence/replay.ts';

/** A script that starts the sweep: this package's own ("node bin/zones-conformance.mjs sweep") or an installer's ("zones-conformance sweep"). */
const SWEEP_SCRIPT = /\bzones-conformance(?:\.mjs)?\s+sweep\b/;

/**
 * How a person starts the sweep in `folder`: `npm run sweep --` where its package.json has a sweep
 * script that runs this one (in a checkout of the suite, or a repository set up as the CI examples
 * say), else the installed command, which npx finds in the folder's node_modules.
 */
function sweepLauncher(folder: string): string {
  try {
    const { scripts } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      scripts?: Record<string, unknown>;
    };
    const sweep = scripts?.sweep;
    if (typeof sweep === 'string' && SWEEP_SCRIPT.test(sweep)) return 'npm run sweep --';
  } catch {
    // No package.json there, or one that can't be read: the installed command needs neither.
  }
  return 'npx zones-conformance sweep';
}

/** A word as a POSIX shell reads it back unchanged: quoted only when it has to be. */
export function shellWord(word: string): string {
  return /^[\w./:@%+=,-]+$/.test(word) ? word : shellQuote(word);
}

/**
 * The sweep of one run's ledger. It needs no `--yes`: the zones it deletes are the ones that ledger
 * proves the run's (its ids, still under the run's names), and `--yes` would add guesses by name. In
 * drift's mock run it names the mock's address and token: the operator's ZONES_BASE_URL is the service.
 */
export function sweepCommand(ledgerPath: string, folder = process.cwd(), targetVariables?: string): string {
  return `${operatorTargetPrefix(targetVariables)}${sweepLauncher(folder)} --ledger ${shellWord(ledgerPath)}`;
}
