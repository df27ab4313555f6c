// `npm run conformance`: certify the target named by the settings, or the embedded reference when
// there is none. Exit codes: 0 conformant, 1 a MUST rule failed, 2 some MUST not verified, 3 could not run.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadEnvironment, readTargetConfig, type TargetConfig } from '../helpers/config.ts';
import {
  type ConformanceReport,
  removePreviousReports,
  withoutToken,
  writeReport,
} from '../helpers/report/conformance-report.ts';
import { outliveOutputReaders, printOutcome, printSummary } from '../helpers/report/console-output.ts';
import {
  buildCouldNotRun,
  factsFromConfig,
  factsFromRawSettings,
  type LauncherFacts,
  writeCouldNotRun,
} from '../helpers/report/could-not-run.ts';
import { writeJunit } from '../helpers/report/junit.ts';
import { certify } from '../helpers/runner/certify.ts';
import { CannotRunError } from '../helpers/runner/preflight.ts';
import { readStopSignals } from '../helpers/runner/stop-signals.ts';
import { settingDocs } from '../helpers/settings.ts';
import { insecureWarning, routeDescription } from '../helpers/target/transport.ts';
import { startEmbeddedTarget } from './embedded-reference.ts';

const CANNOT_RUN = 3;
const startedAt = new Date();
/** Kept up to date as the launcher learns more, so a run that has to give up still reports where it should. */
let known: LauncherFacts = factsFromRawSettings(process.env);

function usage(): string {
  const settings = settingDocs.map(
    (doc) => `  ${doc.name}${doc.default ? ` (default: ${doc.default})` : ''}\n      ${doc.help}`,
  );
  return [
    'Usage: npm run conformance [-- --rule PATTERN] [--seed N]',
    '',
    'Certifies a Zone Management Service (API 2026-07) against its specification.',
    'Settings come from the environment, then from a .env file (see .env.example):',
    '',
    ...settings,
    '',
    'Options:',
    '  --rule PATTERN   run only the tests whose title matches, e.g. CREATE or DELETE-02',
    "  --seed N         the model-based suite's seed, as a failure names it: replays its sequences (ZONES_MODEL_SEED)",
    '  --help           this text',
    '',
    'Exit codes: 0 conformant, 1 a MUST rule failed, 2 some MUST rule not verified, 3 could not run.',
  ].join('\n');
}

/** With --rule, the rules left out say so, instead of a bare "did not run". */
function markFilteredOut(report: ConformanceReport, pattern: string): void {
  const why = `not selected by --rule ${pattern}`;
  report.notes.push(`a partial run: only tests matching --rule ${pattern}`);
  for (const rule of report.rules) {
    for (const test of rule.tests)
      if (test.state === 'not-verified' && test.reason === 'the test did not run') test.reason = why;
    if (rule.status === 'not-verified' && rule.tests.every((test) => test.reason === why)) rule.reason = why;
  }
}

function exitCodeForSignal(signal: NodeJS.Signals): number {
  return signal === 'SIGTERM' ? 143 : 130;
}

function cannotRun(message: string): never {
  const reason = withoutToken(message, known.token);
  let line = `zones-conformance: cannot run: ${reason}`;
  try {
    writeCouldNotRun(buildCouldNotRun(reason, startedAt, known.baseUrl), known);
  } catch (error) {
    line += ` (no report written to ${known.reportsDir}: ${withoutToken((error as Error).message, known.token)})`;
  }
  console.error(line);
  process.exit(CANNOT_RUN);
}

async function main(): Promise<void> {
  outliveOutputReaders();
  const env = loadEnvironment();
  known = factsFromRawSettings(env);
  let args: { help?: boolean; rule?: string; seed?: string };
  try {
    args = parseArgs({
      options: { help: { type: 'boolean', short: 'h' }, rule: { type: 'string' }, seed: { type: 'string' } },
      strict: true,
    }).values;
  } catch (error) {
    cannotRun(`${(error as Error).message} (see --help)`);
  }
  if (args.help) {
    console.log(usage());
    return;
  }

  // The option is the setting spelled on the command line, validated with the other settings.
  if (args.seed !== undefined) env.ZONES_MODEL_SEED = args.seed;
  let config: TargetConfig;
  try {
    config = readTargetConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) cannotRun(error.message);
    throw error;
  }
  known = factsFromConfig(config);
  removePreviousReports(config.reportsDir);

  const embedded = config.embedded ? await startEmbeddedTarget(config) : undefined;
  if (embedded) {
    config = embedded.config;
    known = factsFromConfig(config);
  }
  console.log(
    `zones-conformance: certifying ${config.baseUrl}${embedded ? ' (embedded reference: no ZONES_BASE_URL set)' : routeDescription(config)}`,
  );
  const warning = insecureWarning(config);
  if (warning) console.error(`zones-conformance: ${warning}`);

  let stopRun: (() => Promise<void>) | undefined;
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = readStopSignals({
    stop: (signal) => {
      interrupted = signal;
      console.error(`\nzones-conformance: ${signal}: stopping the tests, then deleting this run's zones`);
      void stopRun?.();
    },
    // A second signal is the way out of a hanging clean-up: leave now, and say what that means.
    leave: (signal) => {
      console.error(
        `zones-conformance: ${signal} again: leaving without finishing clean-up; run npm run sweep to remove this run's zones`,
      );
      process.exit(exitCodeForSignal(signal));
    },
  });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    const reports = await certify([{ name: 'target', config }], {
      testNamePattern: args.rule,
      allure: true,
      reporters: [['allure-vitest/reporter', { resultsDir: join(config.reportsDir, 'allure-results') }]],
      onOutcome: (_project, outcome) => printOutcome(outcome),
      onWaiting: (line) => console.error(line),
      onStarted: (stop) => {
        stopRun = stop;
        // A signal during preflight or start-up: stop before the first test.
        if (interrupted) void stop();
      },
    });
    const report = reports.get('target')!;
    if (interrupted) report.suiteErrors.push(`the run was stopped by ${interrupted} before every test had run`);
    if (args.rule !== undefined) markFilteredOut(report, args.rule);
    const files = writeReport(report, config);
    writeJunit(report, config.reportsDir, config.token);
    printSummary(report, files);
    process.exitCode = interrupted ? exitCodeForSignal(interrupted) : report.exitCode;
  } catch (error) {
    if (error instanceof CannotRunError) cannotRun(error.message);
    throw error;
  } finally {
    await embedded?.reference.close();
  }
}

main().catch((error: unknown) => cannotRun(error instanceof Error ? error.message : String(error)));
