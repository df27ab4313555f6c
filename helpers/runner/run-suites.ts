// Runs the conformance suites through vitest's node API, one vitest project per target, or for the
// mutation gallery's dozens of targets one project with a file per target (shareWorkers).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestUserConfig, Vitest } from 'vitest/node';
import type { TargetConfig } from '../config.ts';
import { EXIT } from '../exit-codes.ts';
import { inProject, projectRoot } from '../project-root.ts';
import { exactTitlesPattern, toRunAgainAlone } from './again-alone.ts';
import { type CollectedRun, OutcomeCollector } from './collector.ts';
import { moduleCacheDir } from './module-cache.ts';
import { type TargetFiles, writeTargetFiles } from './target-files.ts';
import type { TestOutcome } from './verdict.ts';

/** The conformance suites, relative to the project root; the gallery globs the same pattern. */
export const SUITE_FILES = 'suites/*.test.ts';
/** The one project of targets that share workers, a test file each. */
const SHARED_PROJECT = 'targets';
// The setup files are the TypeScript of the source tree, like the suites they serve, also when the
// launcher runs from the build: the workers load everything of theirs from the source tree.
/** Registers the zone matchers in each worker, before any suite file runs. */
const MATCHERS_SETUP = inProject('helpers/harness/register-matchers.ts');
/** Without the Allure reporter, a runtime that answers the suites' Allure calls with nothing, at once. */
const ALLURE_OFF_SETUP = inProject('helpers/harness/allure-off.ts');

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
  /**
   * All targets in one project, a test file each, so that the workers go on from target to target:
   * for dozens of targets at once (the gallery), where starting a worker costs more than a target's
   * checks. `include` then names modules, not patterns. Each target still runs in one worker.
   */
  shareWorkers?: boolean;
  onOutcome?: (target: string, outcome: TestOutcome) => void;
  /** Called with a function that stops the run early, e.g. on SIGINT. */
  onStarted?: (stop: () => Promise<void>) => void;
  /** Called before the tests that failed (or went unverified) beside others run again alone (again-alone.ts), with their number. */
  onAgainAlone?: (tests: number) => void;
}

export async function runSuites(targets: readonly SuiteTarget[], options: SuiteRunOptions): Promise<CollectedRun> {
  const files = options.shareWorkers
    ? writeTargetFiles(targets, projectRoot, options.include ?? suiteModules())
    : undefined;
  try {
    return await runProjects(targets, options, files);
  } finally {
    files?.remove();
  }
}

/** SUITE_FILES as modules to import, for targets that share workers. */
function suiteModules(): string[] {
  return readdirSync(join(projectRoot, 'suites'))
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => `suites/${file}`);
}

/** Tests side by side is a project's setting: the targets of one project must agree on it. */
function sharedConcurrency(targets: readonly SuiteTarget[]): number {
  const values = new Set(targets.map((target) => target.config.concurrency));
  if (values.size > 1) throw new Error('suite defect: targets that share workers must share ZONES_CONCURRENCY');
  return targets[0]?.config.concurrency ?? 1;
}

async function runProjects(
  targets: readonly SuiteTarget[],
  options: SuiteRunOptions,
  files: TargetFiles | undefined,
): Promise<CollectedRun> {
  const collector = new OutcomeCollector(options.onOutcome, files?.targetOf);
  // A test's time limit: room for a few dozen requests at their own limit, the read-after-write
  // windows it may wait out, and Retry-After waits. Running out means "no answer", not "broken".
  const timeout = Math.max(
    ...targets.map((t) => Math.max(600_000, t.config.timeoutMs * 20 + t.config.consistencyTimeoutMs * 15)),
  );
  // A stop that comes while the second pass is being set up would be lost: vitest forgets a
  // cancellation when a run starts. So a stopped run cancels again as soon as a file of it starts.
  let stopped = false;
  let cancel: () => Promise<void> = async () => {};
  const cancelLateStarts: Reporter = {
    onTestModuleStart: () => {
      if (stopped) void cancel();
    },
  };
  const reporters = [
    collector,
    cancelLateStarts,
    ...(Array.isArray(options.reporters) ? options.reporters : options.reporters ? [options.reporters] : []),
  ];
  const project = (name: string, include: string[], provide: object, concurrency: number, dir?: string) => ({
    test: {
      name,
      root: projectRoot,
      dir,
      include,
      // Allure's setup first: it wraps expect.extend, so the matchers registered after it are recorded like vitest's own.
      setupFiles: [options.allure ? 'allure-vitest/setup' : ALLURE_OFF_SETUP, MATCHERS_SETUP],
      provide,
      testTimeout: timeout,
      hookTimeout: timeout,
      // Tests of a file side by side, at most ZONES_CONCURRENCY (vitest reads `sequence.concurrent` from
      // the root config only: below). Files still go one after another in the target's one worker,
      // where one throttle and one set of shared list reads see every request.
      maxConcurrency: concurrency,
      pool: 'threads',
      // The suites keep no state between files that could leak; sharing the module cache saves seconds per target.
      isolate: false,
    },
  });
  const projects: TestUserConfig['projects'] = files
    ? [
        project(
          SHARED_PROJECT,
          ['*.target.test.ts'],
          { zonesTargets: files.provided, runId: options.runId },
          sharedConcurrency(targets),
          files.dir,
        ),
      ]
    : targets.map((target) =>
        project(
          target.name,
          options.include ?? [SUITE_FILES],
          { zonesTarget: target.config, runId: options.runId, ledgerPath: target.ledgerPath },
          target.config.concurrency,
        ),
      );
  // Loaded here, not at the top: a run that stops before its tests (bad settings, a refused
  // preflight, --help) and `npm run sweep` never pay for vitest's start (about 1 s of CPU each).
  const { createVitest } = await import('vitest/node');
  // Not for targets that share workers: their test files are written afresh in a new folder each run,
  // so the cache would only grow, and their few workers transform each module once anyway.
  const moduleCache = files ? undefined : moduleCacheDir(projectRoot);
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
    // The suites' transformed modules kept between runs: a run after the first saves about 0.8 s of CPU.
    experimental: moduleCache === undefined ? {} : { fsModuleCache: true, fsModuleCachePath: moduleCache },
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
  cancel = () => vitest.cancelCurrentRun('keyboard-input');
  options.onStarted?.(() => {
    stopped = true;
    return cancel();
  });
  try {
    await vitest.start();
    const again = stopped ? new Map() : toRunAgainAlone(collector.run);
    if (again.size > 0) {
      options.onAgainAlone?.([...again.values()].reduce((sum, titles) => sum + titles.size, 0));
      collector.startAgainAlone(again);
      await runAgainAlone(vitest, again, collector.run);
    }
  } finally {
    await vitest.close();
  }
  // vitest sets a failing exit code for failed tests; the verdict decides the exit code instead.
  process.exitCode = EXIT.ok;
  return collector.run;
}

/**
 * The second pass: in the same workers, so that each target's throttle still knows its pace and any
 * Retry-After window, one test at a time, only the tests named, in the files that hold them (each
 * file with its own target's titles, where targets share a project, a file each).
 */
async function runAgainAlone(
  vitest: Vitest,
  again: ReadonlyMap<string, ReadonlySet<string>>,
  run: CollectedRun,
): Promise<void> {
  // vitest merges these into the config each run sends its workers (TestProject.serializedConfig).
  const override = (vitest as unknown as { configOverride: Record<string, unknown> }).configOverride;
  override.sequence = { concurrent: false };
  override.maxConcurrency = 1;
  vitest.resetGlobalTestNamePattern();
  const specifications = [];
  for (const [target, titles] of again) {
    // A project per target, or the one project whose files are the targets (targets that share workers).
    const project =
      vitest.projects.find((p) => p.name === target) ?? vitest.projects.find((p) => p.name === SHARED_PROJECT);
    const modules = new Set<string>();
    for (const outcome of run.outcomes.get(target) ?? []) if (titles.has(outcome.title)) modules.add(outcome.file);
    for (const module of modules)
      specifications.push(
        project!.createSpecification(join(projectRoot, module), { testNamePattern: exactTitlesPattern(titles) }),
      );
  }
  await vitest.runTestSpecifications(specifications);
}
