// Which target the suites certify: the one the runner provides to its one worker (runner/certify.ts).
import { inject } from 'vitest';
import type { TargetConfig } from '../config.ts';
import { throttleFor } from '../pacing/throttle.ts';
import './task-meta.ts';

export function currentTarget(): TargetConfig {
  const target = inject('zonesTarget');
  // The worker's throttle begins with what the preflight learned of the shop (a window, a pace), not blind.
  throttleFor(target.baseUrl, target.maxRps, inject('pacing'));
  return target;
}

/** Where the zones the tests create are written down, for the final sweep. */
export function currentLedgerPath(): string {
  return inject('ledgerPath');
}

/** The run's id: it names every zone the tests create, and the ledger the final sweep reads. */
export function currentRunId(): string {
  return inject('runId');
}
