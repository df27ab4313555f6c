// Runs the conformance suites against one target through vitest's node API: one project, one worker,
// one test at a time. Nothing of the suite runs beside a test, so no test can see another's zones in
// the shop's one list, nor take an id another just freed: the races of a shared shop cannot arise.
// Parallelism belongs across shops (a CI matrix with a job per shop), never within one.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import type { TestSequencer, TestSpecification, TestUserConfig, Vitest } from 'vitest/node';
import type { TargetConfig } from '../config.ts';
import { EXIT } from '../exit-codes.ts';
import { inProject, projectRoot } from '../project-root.ts';
import type { CollectedRun, OutcomeCollector } from './collector.ts';

/** The conformance suites, relative to the project root. */
export const SUITE_FILES = 'suites/*.test.ts';
// The workers' setup files, from the source tree like the suites they serve, also when the launcher runs
// from the build. Without the Allure reporter, allure-off answers the suites' Allure calls with nothing.
const MATCHERS_SETUP = inProject('helpers/harness/matchers.ts');
const ALLURE_OFF_SETUP = inProject('helpers/harness/allure-off.ts');

/**
 * A test's time limit: room for a few dozen requests at their own limit, the read-after-write windows a test may
 * wait out, Retry-After waits, and an outage up to its whole budget. Running out means "no answer", not "broken".
 */
export function testTimeoutFor(config: TargetConfig): number {
  return Math.max(600_000, config.timeoutMs * 20 + config.consistencyTimeoutMs * 15) + config.outageBudgetMs;
}

export type SuiteProject = { test: NonNullable<TestUserConfig> } & Record<string, unknown>;

/** The vitest project that runs the suites: tests and files one after another, in one worker. */
export function suiteProject(project: {
  name: string;
  include: string[];
  provide: object;
  allure?: boolean;
  timeoutMs: number;
}): SuiteProject {
  return {
    test: {
      name: project.name,
      root: projectRoot,
      include: project.include,
      // Allure's setup first: it wraps expect.extend, so the matchers registered after it are recorded like vitest's own.
      setupFiles: [project.allure ? 'allure-vitest/setup' : ALLURE_OFF_SETUP, MATCHERS_SETUP],
      provide: project.provide,
      testTimeout: project.timeoutMs,
      hookTimeout: project.timeoutMs,
      maxConcurrency: 1,
      sequence: { concurrent: false },
      pool: 'threads',
      // The suites keep no state between files that could leak; sharing the module cache saves seconds per target.
      isolate: false,
    },
  };
}

/**
 * Files in the order of their names, whatever vitest's cache remembers of earlier runs (it would put
 * a file that failed or ran long first): two runs on one shop print their lines in the same order.
 */
export class FilesByName implements TestSequencer {
  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    return files;
  }

  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0));
  }
}

/** One vitest run of the given projects, its outcomes gathered by the collector. */
export interface VitestRun {
  projects: SuiteProject[];
  collector: OutcomeCollector;
  workers: number;
  moduleCache?: string;
  /** Extra vitest reporters, e.g. junit and allure for a certificate run. */
  reporters?: TestUserConfig['reporters'];
  /** Only tests whose title matches, e.g. "CREATE" for one family. */
  testNamePattern?: string;
  /** Called with a function that stops the run early, e.g. on SIGINT. */
  onStarted?: (stop: () => Promise<void>) => void;
}

export async function runVitest(run: VitestRun): Promise<CollectedRun> {
  const extra = run.reporters === undefined ? [] : Array.isArray(run.reporters) ? run.reporters : [run.reporters];
  // Loaded here, not at the top: a run that stops before its tests (bad settings, a refused
  // preflight, --help) and `npm run sweep` never pay for vitest's start (about 1 s of CPU each).
  const { createVitest } = await import('vitest/node');
  const signalListenersBefore = new Set([...process.listeners('SIGINT'), ...process.listeners('SIGTERM')]);
  const vitest: Vitest = await createVitest('test', {
    config: false,
    root: projectRoot,
    watch: false,
    reporters: [run.collector, ...extra] as TestUserConfig['reporters'],
    testNamePattern: run.testNamePattern,
    maxWorkers: run.workers,
    passWithNoTests: true,
    experimental: run.moduleCache === undefined ? {} : { fsModuleCache: true, fsModuleCachePath: run.moduleCache },
    sequence: { sequencer: FilesByName },
    // The CLI options type lacks `projects`, which the inline config accepts.
    ...({ projects: run.projects } as object),
  });
  // vitest's logger exits the process on SIGINT and SIGTERM; the launcher must first sweep this
  // run's zones, so those listeners go and the launcher's own handle the signals.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal))
      if (!signalListenersBefore.has(listener)) process.off(signal, listener);
  }
  // Cancelling lets the test in flight finish, tear-down included, and skips the rest: killing the
  // workers instead could lose the answer to a create that the target has already carried out.
  let stopped = false;
  run.onStarted?.(async () => {
    stopped = true;
    await vitest.cancelCurrentRun('keyboard-input');
  });
  try {
    // A stop that came before the tests (during the preflight, say) runs none of them. vitest forgets
    // a cancellation when its run starts, so it is never asked to start a stopped run.
    if (!stopped) await vitest.start();
  } finally {
    await vitest.close();
  }
  // vitest sets a failing exit code for failed tests; the verdict decides the exit code instead.
  process.exitCode = EXIT.ok;
  return run.collector.run;
}

/**
 * Where vitest keeps the suites' transformed modules between runs (its fsModuleCache, keyed by each file's
 * content and vitest's configuration): beside the package's dependencies when that is writable (reinstalling
 * then starts afresh), else one per user in the temporary directory; where neither is, no cache.
 */
export function moduleCacheDir(projectRoot: string): string | undefined {
  const candidates = [
    join(projectRoot, 'node_modules', '.cache', 'zones-conformance-modules'),
    join(tmpdir(), `zones-conformance-modules-${userName()}`),
  ];
  return candidates.find((directory) => {
    try {
      mkdirSync(directory, { recursive: true });
      accessSync(directory, constants.W_OK);
      return true;
    } catch {
      return false; // Not writable here: the next place, or no cache.
    }
  });
}

function userName(): string {
  try {
    return userInfo().username.replace(/[^\w.-]/g, '_');
  } catch {
    return String(process.getuid?.() ?? 'user');
  }
}
