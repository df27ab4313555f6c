// Which target the suite file being run certifies. A certification gives each target a vitest project
// of its own, and the target comes in by provide/inject. The gallery certifies dozens of targets in one
// project instead, so that its few workers are reused from target to target (a worker's start costs more
// than a mutant's checks): there each target is a test file of its own that names its target first.
import { inject } from 'vitest';
import type { TargetConfig } from '../config.ts';
import './task-meta.ts';

// On globalThis, like the throttles: the file names its target before it reloads the suites and the
// helpers (vi.resetModules), and the copy of this module that the matchers' setup loaded earlier must
// read the same name. A worker runs its files one after another, so one name at a time is enough.
const shared = globalThis as { __zonesFileTarget?: string };

/** For a file of a project that certifies many targets: the name under which its target was provided. */
export function certifyThisFileFor(name: string): void {
  shared.__zonesFileTarget = name;
}

function fileTarget(): { config: TargetConfig; ledgerPath: string } | undefined {
  const name = shared.__zonesFileTarget;
  if (name === undefined) return undefined;
  const found = inject('zonesTargets')?.[name];
  if (found === undefined) throw new Error(`suite defect: no target named ${name} was provided to this project`);
  return found;
}

export function currentTarget(): TargetConfig {
  return fileTarget()?.config ?? inject('zonesTarget');
}

/** Where the zones this file's tests create are written down, for the final sweep. */
export function currentLedgerPath(): string {
  return fileTarget()?.ledgerPath ?? inject('ledgerPath');
}
