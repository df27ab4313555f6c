// A whole certification: preflight, the suites, the final sweep and the report, for one target or
// many at once (the mutation gallery). The CLI and the self-tests both come through here.
import { randomBytes } from 'node:crypto';
import type { TargetConfig } from '../config.ts';
import { sweepLedger } from '../ownership/final-sweep.ts';
import { ledgerAt, runLedgerPath } from '../ownership/ledger.ts';
import { buildReport, type ConformanceReport } from '../report/conformance-report.ts';
import { ZonesClient } from '../target/client.ts';
import { emptyTally } from '../target/request-tally.ts';
import { throttleFor } from '../target/throttle.ts';
import { preflight } from './preflight.ts';
import { runSuites, type SuiteRunOptions } from './run-suites.ts';

export interface CertifyTarget {
  name: string;
  config: TargetConfig;
}

/** A run id that sorts by time and tells its own age: `npm run sweep --by-prefix` reads it back. */
export function newRunId(now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, '')
    .toLowerCase();
  return `${stamp}-${randomBytes(2).toString('hex')}`;
}

export interface CertifyOptions extends Omit<SuiteRunOptions, 'runId'> {
  runId?: string;
  /** A line to show while the preflight waits for an answer. */
  onWaiting?: (line: string) => void;
}

export async function certify(
  targets: readonly CertifyTarget[],
  options: CertifyOptions = {},
): Promise<Map<string, ConformanceReport>> {
  const runId = options.runId ?? newRunId();
  const startedAt = new Date();
  const many = targets.length > 1;
  const prepared = [];
  for (const target of targets) {
    const ledgerPath = runLedgerPath(target.config.reportsDir, runId, many ? target.name : undefined);
    let preflightRequests = 0;
    const preflightTally = emptyTally();
    // A target that does not answer is told at the first time limit, not after three more.
    const api = new ZonesClient(target.config, {
      ledger: ledgerAt(ledgerPath),
      resendTimedOutGets: false,
      onExchange: () => (preflightRequests += 1),
      tallyFor: () => preflightTally,
    });
    await preflight(api, { runId, onWaiting: options.onWaiting });
    prepared.push({ ...target, ledgerPath, preflightRequests, preflightTally });
  }
  const run = await runSuites(prepared, { ...options, runId });
  const reports = new Map<string, ConformanceReport>();
  for (const target of prepared) {
    const swept = await sweepLedger(target.config, target.ledgerPath, runId);
    const { requests: sweepRequests, tally: sweepTally, ...cleanup } = swept;
    reports.set(
      target.name,
      buildReport({
        config: target.config,
        runId,
        startedAt,
        finishedAt: new Date(),
        outcomes: run.outcomes.get(target.name) ?? [],
        superseded: run.superseded.get(target.name) ?? [],
        againAloneSince: run.againAloneSince,
        runErrors: run.errors,
        cleanup,
        // The main process's own throttle saw the 429s of the preflight and the sweep.
        requests: {
          preflight: target.preflightRequests,
          sweep: sweepRequests,
          throttled: throttleFor(target.config.baseUrl, target.config.maxRps).throttled,
          tally: { preflight: target.preflightTally, sweep: sweepTally },
        },
      }),
    );
  }
  return reports;
}
