// Runs the conformance suites through vitest's node API, one vitest project per target. One
// toolchain serves any number of targets: the mutation gallery certifies dozens in one go.
import { fileURLToPath } from 'node:url';
import type { TestUserConfig } from 'vitest/node';
import type { TargetConfig } from '../config.ts';
import { EXIT } from '../exit-codes.ts';
import { type CollectedRun, OutcomeCollector } from './collector.ts';
import type { TestOutcome } from './verdict.ts';

export const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
/** The conformance suites, relative to the project root; the gallery globs the same pattern. */
export const SUITE_FILES = 'suites/*.test.ts';
/** Registers the zone matchers in each worker, before any suite file runs. */
const MATCHERS_SETUP = fileURLToPath(new URL('../harness/register-matchers.ts', import.meta.url));

export interface SuiteTarget {
  name: string;
  config: TargetConfig;
  ledgerPath: string;
}

export interface SuiteRunOptions {
  runId: string;
  /** Extra vitest reporters, e.g. junit and allure for a certificate run. */
  reporters?: NonNullable<TestUserConfig['reporters']>;
  /** Test files to run, relative to the project root; all suites by default. */
  include?: string[];
  /** Load allure-vitest's runtime in the workers; only worth it when its reporter runs too. */
  allure?: boolean;
  /** Only tests whose title matches, e.g. "CREATE" for one family. */
  testNamePattern?: string;
  /** Workers for the whole run; by default one per target. */
  maxWorkers?: number;
  onOutcome?: (project: string, outcome: TestOutcome) => void;
  /** Called with a function that stops the run early, e.g. on SIGINT. */
  onStarted?: (stop: () => Promise<void>) => void;
}

export async function runSuites(targets: readonly SuiteTarget[], options: SuiteRunOptions): Promise<CollectedRun> {
  const collector = new OutcomeCollector(options.onOutcome);
  // A test's time limit: room for a few dozen requests at their own limit, the read-after-write
  // windows it may wait out, and Retry-After waits. Running out means "no answer", not "broken".
  const timeout = Math.max(
    ...targets.map((t) => Math.max(600_000, t.config.timeoutMs * 20 + t.config.consistencyTimeoutMs * 15)),
  );
  const reporters = [
    collector,
    ...(Array.isArray(options.reporters) ? options.reporters : options.reporters ? [options.reporters] : []),
  ];
  const projects: TestUserConfig['projects'] = targets.map((target) => ({
    test: {
      name: target.name,
      root: projectRoot,
      include: options.include ?? [SUITE_FILES],
      // Allure's setup first: it wraps expect.extend, so the matchers registered after it are recorded like vitest's own.
      setupFiles: [...(options.allure ? ['allure-vitest/setup'] : []), MATCHERS_SETUP],
      provide: { zonesTarget: target.config, runId: options.runId, ledgerPath: target.ledgerPath },
      testTimeout: timeout,
      hookTimeout: timeout,
      // Tests of a file side by side, at most ZONES_CONCURRENCY (vitest reads `sequence.concurrent` from
      // the root config only: below). Files still go one after another in the target's one worker,
      // where one throttle and one set of shared list reads see every request.
      maxConcurrency: target.config.concurrency,
      pool: 'threads',
      // The suites keep no state between files that could leak; sharing the module cache saves seconds per target.
      isolate: false,
    },
  }));
  // Loaded here, not at the top: a run that stops before its tests (bad settings, a refused
  // preflight, --help) and `npm run sweep` never pay for vitest's start (about 1 s of CPU each).
  const { createVitest } = await import('vitest/node');
  const signalListenersBefore = new Set([...process.listeners('SIGINT'), ...process.listeners('SIGTERM')]);
  const vitest = await createVitest('test', {
    config: false,
    root: projectRoot,
    watch: false,
    reporters: reporters as TestUserConfig['reporters'],
    testNamePattern: options.testNamePattern,
    // One worker per target by default: its one throttle then decides how many requests are under
    // way, so a 429's Retry-After window is known to every later request (helpers/target/throttle.ts).
    maxWorkers: options.maxWorkers ?? targets.length,
    passWithNoTests: true,
    sequence: { concurrent: targets.some((target) => target.config.concurrency > 1) },
    // The CLI options type lacks `projects`, which the inline config accepts.
    ...({ projects } as object),
  });
  // vitest's logger exits the process on SIGINT and SIGTERM; the launcher must first sweep this
  // run's zones, so those listeners go and the launcher's own handle the signals.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal))
      if (!signalListenersBefore.has(listener)) process.off(signal, listener);
  }
  // Cancelling lets the test in flight finish, tear-down included, and skips the rest: killing the
  // workers instead could lose the answer to a create that the target has already carried out.
  options.onStarted?.(() => vitest.cancelCurrentRun('keyboard-input'));
  try {
    await vitest.start();
  } finally {
    await vitest.close();
  }
  // vitest sets a failing exit code for failed tests; the verdict decides the exit code instead.
  process.exitCode = EXIT.ok;
  return collector.run;
}
