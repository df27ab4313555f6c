// Which target the suites certify: a run has one, which the runner provides to its one worker
// (helpers/runner/run-suites.ts).
import { inject } from 'vitest';
import type { TargetConfig } from '../config.ts';
import './task-meta.ts';

export function currentTarget(): TargetConfig {
  return inject('zonesTarget');
}

/** Where the zones the tests create are written down, for the final sweep. */
export function currentLedgerPath(): string {
  return inject('ledgerPath');
}
