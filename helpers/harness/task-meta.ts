// What crosses between the runner and the test workers: the target going in (provide/inject),
// and what a test tells the reporter beyond pass and fail coming out (task.meta).
import type { TargetConfig } from '../config.ts';
import type { ExchangeRecord } from '../evidence/evidence.ts';
import type { RequestTally } from '../evidence/request-tally.ts';
import type { CleanupRecord } from '../ownership/cleanup-record.ts';
import type { OutageStart } from '../pacing/outage.ts';
import type { PaceState } from '../pacing/throttle.ts';

declare module 'vitest' {
  interface ProvidedContext {
    zonesTarget: TargetConfig;
    runId: string;
    ledgerPath: string;
    pacing?: PaceState;
    /** The run's options (CertifyOptions): whether drift records every exchange, and its operator's names. */
    recordExchanges?: string;
    targetVariables?: string;
  }
}

// TaskMeta lives in the runner package; vitest only re-exports it.
declare module '@vitest/runner' {
  interface TaskMeta {
    /** The requests the test body sent, by endpoint, list pages, 429s and re-sends; a check with none proves nothing. */
    tally?: RequestTally;
    /** The requests the fixture sent to clean up after the test. */
    cleanupTally?: RequestTally;
    /** Requests of a run this test shares (the model-based suite's), counted under the test that sent them. */
    sharedRequests?: number;
    notVerified?: string;
    cleanup?: CleanupRecord;
    /** How long lists took to show a write, each time one lagged. */
    lagMs?: number[];
    /** Each exchange of the test body, in order, as the reports show it (with its curl command). */
    exchanges?: ExchangeRecord[];
    /** What the settings made the test check with: never in its title, which CI tools follow from night to night. */
    checkedWith?: string[];
    /** The shop had not answered for itself for longer than ZONES_OUTAGE_BUDGET_MS: the launcher stops the run. */
    outage?: OutageStart;
  }
}
