// `npm run conformance`: certify the target named by the settings, or the embedded reference when
// there is none. Exit codes: 0 conformant, 1 a MUST rule failed, 2 some MUST not verified, 3 could not run.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { certify } from '../helpers/certify.ts';
import { writeReport } from '../helpers/certificate.ts';
import { ConfigError, loadEnvironment, readTargetConfig, type TargetConfig } from '../helpers/config.ts';
import { printOutcome, printSummary } from '../helpers/console-output.ts';
import { CannotRunError } from '../helpers/preflight.ts';
import { settingDocs } from '../helpers/settings.ts';
import { startEmbeddedTarget } from './embedded-reference.ts';

const CANNOT_RUN = 3;

function usage(): string {
  const settings = settingDocs.map((doc) => `  ${doc.name}${doc.default ? ` (default: ${doc.default})` : ''}\n      ${doc.help}`);
  return [
    'Usage: npm run conformance [-- --rule PATTERN]',
    '',
    'Certifies a Zone Management Service (API 2026-07) against its specification.',
    'Settings come from the environment, then from a .env file (see .env.example):',
    '',
    ...settings,
    '',
    'Options:',
    '  --rule PATTERN   run only the tests whose title matches, e.g. CREATE or DELETE-02',
    '  --help           this text',
    '',
    'Exit codes: 0 conformant, 1 a MUST rule failed, 2 some MUST rule not verified, 3 could not run.',
  ].join('\n');
}

function cannotRun(message: string): never {
  console.error(`zones-conformance: cannot run: ${message}`);
  process.exit(CANNOT_RUN);
}

async function main(): Promise<void> {
  let args;
  try {
    args = parseArgs({ options: { help: { type: 'boolean', short: 'h' }, rule: { type: 'string' } }, strict: true }).values;
  } catch (error) {
    cannotRun(`${(error as Error).message} (see --help)`);
  }
  if (args.help) {
    console.log(usage());
    return;
  }

  let config: TargetConfig;
  try {
    config = readTargetConfig(loadEnvironment());
  } catch (error) {
    if (error instanceof ConfigError) cannotRun(error.message);
    throw error;
  }

  const embedded = config.embedded ? await startEmbeddedTarget(config) : undefined;
  if (embedded) config = embedded.config;
  console.log(`zones-conformance: certifying ${config.baseUrl}${embedded ? ' (embedded reference: no ZONES_BASE_URL set)' : ''}`);

  rmSync(join(config.reportsDir, 'allure-results'), { recursive: true, force: true });
  let stopRun: (() => Promise<void>) | undefined;
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) process.exit(130);
    interrupted = signal;
    console.error(`\nzones-conformance: ${signal}: stopping the tests, then deleting this run's zones`);
    void stopRun?.();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    const reports = await certify([{ name: 'target', config }], {
      testNamePattern: args.rule,
      allure: true,
      reporters: [
        ['junit', { outputFile: join(config.reportsDir, 'junit.xml') }],
        ['allure-vitest/reporter', { resultsDir: join(config.reportsDir, 'allure-results') }],
      ],
      onOutcome: (_project, outcome) => printOutcome(outcome),
      onStarted: (stop) => (stopRun = stop),
    });
    const report = reports.get('target')!;
    if (interrupted) report.suiteErrors.push(`the run was stopped by ${interrupted} before every test had run`);
    const files = writeReport(report, config);
    printSummary(report, files);
    process.exitCode = interrupted ? (interrupted === 'SIGINT' ? 130 : 143) : report.exitCode;
  } catch (error) {
    if (error instanceof CannotRunError) cannotRun(error.message);
    throw error;
  } finally {
    await embedded?.reference.close();
  }
}

main().catch((error: unknown) => cannotRun(error instanceof Error ? error.message : String(error)));
