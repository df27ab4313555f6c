// `npm run drift`: the same scenarios against the service and its mock with one set of settings, and
// where the mock answers otherwise, as USAGE says.
import { type Environment, loadEnvironment, newModelSeed } from '../helpers/config.ts';
import { removePreviousDriftReports, verdictLine, writeDriftReports } from '../helpers/drift/drift-files.ts';
import {
  buildDriftReport,
  type DriftReport,
  driftReport,
  preflightRefusalReport,
  sideSummary,
} from '../helpers/drift/drift-report.ts';
import { preflightBoth, startSides } from '../helpers/drift/side-runs.ts';
import { readDriftTargets } from '../helpers/drift/targets.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import { EXIT, exitCodeForSignal } from '../helpers/exit-codes.ts';
import { withoutUserInfo } from '../helpers/report/could-not-run.ts';
import { readStopSignals } from '../helpers/runner/stop-signals.ts';
import { settingDefault } from '../helpers/settings.ts';
import { leaveCannotRun, readCommandLine } from './command-options.ts';

const USAGE = [
  'Usage: npm run drift [-- [--seed=N] [--quiet] | --help]',
  '',
  'Runs the conformance scenarios against the service (ZONES_BASE_URL, ZONES_ACCESS_TOKEN) and against',
  'its mock (ZONES_MOCK_BASE_URL, ZONES_MOCK_ACCESS_TOKEN), side by side, with every other setting the',
  'same, and reports where the mock answers otherwise: status codes, content types, body shapes, the',
  "values the suite can predict, paging headers, error bodies and every rule's verdict.",
  '',
  'Options:',
  "  --seed=N   the model-based sequences' seed, the same on both (ZONES_MODEL_SEED); drawn when unset",
  "  --quiet    print only each run's verdict, drift's verdict and the differences, not a line per test",
  '  --help     this text',
  '',
  `Exit codes: ${EXIT.ok} same, ${EXIT.failed} drifted, ${EXIT.cannotRun} could not run (it names the target), 130/143 stopped by SIGINT/SIGTERM.`,
  "Writes drift.json, drift.md and drift.html to ZONES_REPORTS_DIR, and each run's own reports to",
  'ZONES_REPORTS_DIR/drift/service and ZONES_REPORTS_DIR/drift/mock. See docs/drift.md.',
].join('\n');

let secrets = new Secrets({ token: '' });

/** Stops before either run started: the reason, a drift.json that says so, exit 3. */
function cannotRun(reason: string, env: Environment, startedAt: Date): never {
  const reportsDir = env.ZONES_REPORTS_DIR?.trim() || settingDefault('ZONES_REPORTS_DIR');
  const target = (baseUrl: string | undefined) => sideSummary(withoutUserInfo(baseUrl ?? ''), 'not run');
  const targets = { service: target(env.ZONES_BASE_URL), mock: target(env.ZONES_MOCK_BASE_URL) };
  // No seed was drawn yet: 0 says none, as before any run.
  const report = driftReport({ startedAt, seed: 0, targets }, { reason });
  const write = () => writeDriftReports(report, reportsDir, secrets);
  leaveCannotRun(`zones-conformance drift: cannot run: ${secrets.mask(reason)}`, { write, dir: reportsDir, secrets });
}

async function main(): Promise<void> {
  const startedAt = new Date();
  const env = loadEnvironment();
  secrets = new Secrets({
    token: env.ZONES_ACCESS_TOKEN?.trim() ?? '',
    mockToken: env.ZONES_MOCK_ACCESS_TOKEN?.trim() ?? '',
    authHeader: env.ZONES_AUTH_HEADER?.trim() || settingDefault('ZONES_AUTH_HEADER'),
    authScheme: env.ZONES_AUTH_SCHEME?.trim() ?? '',
  });
  const refuse = (reason: string) => cannotRun(reason, env, startedAt);
  const args = readCommandLine({ seed: { type: 'string' }, quiet: { type: 'boolean', short: 'q' } }, USAGE, refuse);
  if (!args) return;
  if (args.seed !== undefined) env.ZONES_MODEL_SEED = args.seed;
  // Drawn once here, so that both runs play the same model-based sequences.
  if ((env.ZONES_MODEL_SEED ?? '').trim() === '') env.ZONES_MODEL_SEED = String(newModelSeed());
  const targets = readDriftTargets(env, refuse);
  const seed = targets.service.model.seed!;
  removePreviousDriftReports(targets.reportsDir);
  console.log(
    secrets.mask(
      `zones-conformance drift: ${targets.service.baseUrl} (service) against ${targets.mock.baseUrl} (mock), seed ${seed}`,
    ),
  );

  // Listening before the preflights: a signal during them lets them finish (each deletes its own zone).
  let sides: ReturnType<typeof startSides> | undefined;
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = readStopSignals({
    stop: (signal) => {
      interrupted = signal;
      console.error(`\nzones-conformance drift: ${signal}: stopping both runs; each deletes its zones first`);
      sides?.signal(signal);
    },
    leave: (signal) => {
      sides?.signal(signal);
      console.error(
        `zones-conformance drift: ${signal} again: leaving; run npm run sweep for each target to remove what is left`,
      );
      process.exit(exitCodeForSignal(signal));
    },
  });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  // Both preflights first: a target that refuses the settings stops drift before any run starts.
  const refusals = await preflightBoth(targets, secrets);
  if (interrupted) return stopped(interrupted, 'stopped before either run started');
  if (refusals.service !== undefined || refusals.mock !== undefined) {
    const refused = preflightRefusalReport({ startedAt, seed, configs: targets }, secrets.maskAll(refusals));
    return finish(refused, targets.reportsDir);
  }

  sides = startSides({ env, reportsDir: targets.reportsDir, seed, quiet: args.quiet === true, secrets });
  const runs = await sides.done;
  if (interrupted) return stopped(interrupted, 'both runs stopped');
  finish(buildDriftReport({ startedAt, seed, runs, configs: targets }), targets.reportsDir);
}

/** A signal ended drift before its comparison: the signal's exit code, and no reports. */
function stopped(signal: NodeJS.Signals, what: string): void {
  console.error(`zones-conformance drift: ${what}; no comparison was made`);
  process.exitCode = exitCodeForSignal(signal);
}

function finish(report: DriftReport, reportsDir: string): void {
  const files = writeDriftReports(report, reportsDir, secrets);
  const line = secrets.mask(verdictLine(report));
  if (report.verdict === 'could-not-run') console.error(`zones-conformance drift: cannot run: ${line}`);
  else console.log(`zones-conformance drift: ${line}`);
  secrets.maskAll(report).differences.forEach((difference, index) => {
    const about = difference.subject === undefined ? difference.aspect : `${difference.aspect} (${difference.subject})`;
    console.log(
      `  ${index + 1}. ${difference.operations.join(', ')}: ${about}: service ${difference.service}, mock ${difference.mock} (${difference.count} step(s); first: ${difference.case})`,
    );
  });
  console.log(`reports: ${files.join(', ')}`);
  process.exitCode = report.exitCode;
}

main().catch((error: unknown) =>
  leaveCannotRun(
    `zones-conformance drift: cannot run: ${secrets.mask(error instanceof Error ? (error.stack ?? error.message) : String(error))}`,
  ),
);
