// The gallery's stand-in for helpers/harness/current-target.ts. A certification gives its one target
// to the workers by provide/inject; the gallery certifies dozens of targets in one vitest project,
// so that its few workers go on from target to target (starting a worker costs more than a mutant's
// checks), and there each target is a test file of its own that names its target before it loads
// the suites. The gallery's project resolves every import of current-target.ts to this module
// (certify-many.ts), so the suites and the harness read the file's target without knowing of it.
import { inject } from 'vitest';
import type { TargetConfig } from '../../helpers/config.ts';

/** What a target's file reads of its target: the runner provides it to the project, under the target's name. */
export interface ProvidedTarget {
  config: TargetConfig;
  ledgerPath: string;
  /** The target's own, as separate certifications would have: drift's recorded sides then differ as a real drift's do. */
  runId: string;
}

declare module 'vitest' {
  interface ProvidedContext {
    /** The gallery's targets by name, a test file each. */
    zonesTargets: Record<string, ProvidedTarget>;
  }
}

// On globalThis: the file names its target before it reloads the suites and the helpers
// (vi.resetModules), and the copy of this module that the matchers' setup loaded earlier must read
// the same name. A worker runs its files one after another, so one name at a time is enough.
const shared = globalThis as { __zonesFileTarget?: string };

/** Called first by each target's test file: the name under which its target was provided. */
export function certifyThisFileFor(name: string): void {
  shared.__zonesFileTarget = name;
}

function fileTarget(): ProvidedTarget {
  const name = shared.__zonesFileTarget;
  if (name === undefined) throw new Error('suite defect: a gallery test file ran before naming its target');
  const found = inject('zonesTargets')[name];
  if (found === undefined) throw new Error(`suite defect: no target named ${name} was provided to this project`);
  return found;
}

export function currentTarget(): TargetConfig {
  return fileTarget().config;
}

export function currentLedgerPath(): string {
  return fileTarget().ledgerPath;
}

export function currentRunId(): string {
  return fileTarget().runId;
}
