// Which target the suites certify: a run has one, which the runner provides to its one worker
// (helpers/runner/run-suites.ts).
import { inject } from 'vitest';
import type { TargetConfig } from '../config.ts';
import { throttleFor } from '../pacing/throttle.ts';
import './task-meta.ts';

export function currentTarget(): TargetConfig {
  const target = inject('zonesTarget');
  // Before the worker's first request: its throttle begins with what the preflight learned of the
  // shop (a spent bucket, a window still open, a pace), not blind. Later calls find it made.
  throttleFor(target.baseUrl, target.maxRps, inject('pacing'));
  return target;
}

/** Where the zones the tests create are written down, for the final sweep. */
export function currentLedgerPath(): string {
  return inject('ledgerPath');
}
