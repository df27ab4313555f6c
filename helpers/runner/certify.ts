// A whole certification of one target: preflight, the suites, the final sweep and the report. The CLI
// and the self-tests come through here; the mutation gallery (selftest/gallery) takes its steps apart,
// to run many targets' suites in one vitest run.
import { randomBytes } from 'node:crypto';
import { ZonesClient } from '../client/zones-client.ts';
import { newModelSeed, type TargetConfig } from '../config.ts';
import { notKeptNote } from '../evidence/bounded-body.ts';
import { isOperatorPrefix } from '../evidence/replay.ts';
import { emptyTally, type RequestTally, requestsIn } from '../evidence/request-tally.ts';
import { CannotRunError } from '../exit-codes.ts';
import type { TestOutcome } from '../judging/verdict.ts';
import { sweepLedger } from '../ownership/final-sweep.ts';
import { ledgerAt, runLedgerPath } from '../ownership/ledger.ts';
import { outageFor } from '../pacing/outage.ts';
import { type PaceState, throttleFor } from '../pacing/throttle.ts';
import { projectRoot } from '../project-root.ts';
import type { ConformanceReport } from '../report/certificate.ts';
import { buildReport, type RunFacts } from '../report/conformance-report.ts';
import { type CollectedRun, OutcomeCollector } from './collector.ts';
import { type PreflightOptions, preflight } from './preflight.ts';
import { moduleCacheDir, runVitest, SUITE_FILES, suiteProject, testTimeoutFor, type VitestRun } from './run-suites.ts';

export type CertifyTarget = Pick<PreparedTarget, 'name' | 'config'>;

/** How long the preflight asks again a shop whose gateway answers 502, 503 or 504 before it stops. */
export const PREFLIGHT_OUTAGE_BUDGET_MS = 5_000;

/** A run id that sorts by time and tells its own age: `npm run sweep --by-prefix` reads it back. */
export function newRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]|\.\d+Z$/g, '')
    .toLowerCase();
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

export interface CertifyOptions
  extends Pick<VitestRun, 'reporters' | 'testNamePattern' | 'onStarted'>,
    Pick<PreflightOptions, 'onWaiting'> {
  /** The file each test's exchanges are written to, as data (exchange-detail.ts): drift compares two runs' files. */
  recordExchanges?: string;
  /** What the operator's names for this target begin with, for the commands the reports print (replay.ts). */
  targetVariables?: string;
  onOutcome?: (target: string, outcome: TestOutcome) => void;
  /** What the launcher knows of the run, read once the tests are over: a signal that stopped it, --rule, --baseline. */
  launcherFacts?: () => LauncherRunFacts;
}

export type LauncherRunFacts = Pick<RunFacts, 'stoppedBy' | 'selection' | 'baseline'>;

/** A target that passed its preflight, with what the preflight cost and what its throttle learned of the shop. */
export interface PreparedTarget {
  name: string;
  config: TargetConfig;
  ledgerPath: string;
  preflightTally: RequestTally;
  pacing: PaceState;
}

/**
 * The model-based suite's seed: the one set, else a new one, drawn in the launcher rather than in a worker so
 * that the reports can name it with the command that replays the night (docs/design.md says why a new one).
 */
export function withRunSeed(config: TargetConfig): TargetConfig {
  if (config.model.seed !== undefined) return config;
  return { ...config, model: { ...config.model, seed: newModelSeed(), seedDrawn: true } };
}

/** The preflight: an unreachable target, a refused token or unreadable answers stop here, with exit 3. */
export async function prepareTarget(
  target: CertifyTarget,
  options: PreflightOptions & { ledgerName?: string },
): Promise<PreparedTarget> {
  const config = withRunSeed(target.config);
  const ledgerPath = runLedgerPath(config.reportsDir, options.runId, options.ledgerName);
  const preflightTally = emptyTally();
  // A target that does not answer is told at the first time limit, not after three more; a shop in
  // maintenance after a few seconds, not after the run's whole outage budget.
  const api = new ZonesClient(config, {
    ledger: ledgerAt(ledgerPath),
    resendTimedOutGets: false,
    frontPagesAnswer: true,
    outageBudgetMs: Math.min(PREFLIGHT_OUTAGE_BUDGET_MS, config.outageBudgetMs),
    tallyFor: () => preflightTally,
  });
  await preflight(api, options);
  // The preflight may have spent the shop's bucket, or met a window still open: the worker goes on from here.
  const pacing = throttleFor(config.baseUrl, config.maxRps).state;
  return { ...target, config, ledgerPath, preflightTally, pacing };
}

/** After the tests: the final sweep of the target's ledger, then its certificate. */
export async function concludeTarget(
  target: PreparedTarget,
  run: CollectedRun,
  facts: Pick<RunFacts, 'runId' | 'startedAt' | 'outage' | 'targetVariables'> & LauncherRunFacts,
): Promise<ConformanceReport> {
  // The worker waited out the budget already: a shop still down is not waited for a second time here.
  if (facts.outage) outageFor(target.config.baseUrl).adopt(facts.outage);
  const swept = await sweepLedger(target.config, target.ledgerPath, facts.runId, facts.targetVariables);
  const { tally: sweepTally, ...cleanup } = swept;
  return buildReport({
    ...facts,
    config: target.config,
    finishedAt: new Date(),
    outcomes: run.outcomes.get(target.name) ?? [],
    runErrors: run.errors,
    cleanup,
    bodiesNotKept: notKeptNote(target.config.reportsDir),
    // The main process's own throttle saw the 429s of the preflight and the sweep.
    requests: {
      preflight: requestsIn(target.preflightTally),
      sweep: requestsIn(sweepTally),
      throttled: throttleFor(target.config.baseUrl, target.config.maxRps).throttled,
      tally: { preflight: target.preflightTally, sweep: sweepTally },
    },
  });
}

/** One target's whole certification: preflight, the suites one test at a time, the sweep, the report. */
export async function certify(target: CertifyTarget, options: CertifyOptions = {}): Promise<ConformanceReport> {
  // Written into commands a person pastes: a name the shell could read otherwise is refused before any request.
  if (!isOperatorPrefix(options.targetVariables))
    throw new CannotRunError(`--target-variables takes a prefix like ZONES_MOCK_, not "${options.targetVariables}"`);
  const runId = newRunId();
  const startedAt = new Date();
  const prepared = await prepareTarget(target, { runId, onWaiting: options.onWaiting });
  // A test that ends with the shop gone past the budget stops the run, as a Ctrl-C does: the test
  // under way finishes with its clean-up and the rest are skipped, instead of each waiting in turn.
  let stop: (() => Promise<void>) | undefined;
  let outage: ConformanceReport['outage'];
  const { config, ledgerPath, pacing } = prepared;
  const { recordExchanges, targetVariables } = options;
  const project = suiteProject({
    name: prepared.name,
    include: [SUITE_FILES],
    provide: { zonesTarget: config, runId, ledgerPath, pacing, recordExchanges, targetVariables },
    allure: true,
    timeoutMs: testTimeoutFor(config),
  });
  const onOutcome = (name: string, outcome: TestOutcome) => {
    options.onOutcome?.(name, outcome);
    if (outcome.outage === undefined || outage !== undefined) return;
    outage = { ...outcome.outage, budgetMs: config.outageBudgetMs };
    void stop?.();
  };
  const run = await runVitest({
    ...options,
    projects: [project],
    collector: new OutcomeCollector(onOutcome, undefined, recordExchanges),
    workers: 1,
    // Transforming the suites takes a third of a run's CPU: later runs read them back (about 0.8 s less).
    moduleCache: moduleCacheDir(projectRoot),
    onStarted: (stopRun) => {
      stop = stopRun;
      options.onStarted?.(stopRun);
    },
  });
  return concludeTarget(prepared, run, {
    runId,
    startedAt,
    outage,
    targetVariables,
    ...options.launcherFacts?.(),
  });
}
