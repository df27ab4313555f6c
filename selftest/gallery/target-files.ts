// Many targets in one vitest project, a test file each: vitest never lends a worker of one project to
// another, so with a project per target every target pays a fresh worker (vitest's runner, undici, ajv,
// fast-check loaded again), which costs the gallery more than its checks. In one project that does not
// isolate its files, a few workers take the targets' files one after another and keep those modules.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { TestCase } from 'vitest/node';
import type { ProvidedTarget } from './file-target.ts';

export interface TargetFiles {
  /** The folder of the files, for the project's `dir`; only they are in it. */
  dir: string;
  /** What the files find their target in (file-target.ts reads it). */
  provided: Record<string, ProvidedTarget>;
  targetOf: (testCase: TestCase) => string;
  remove: () => void;
}

const FILE_TARGET = 'selftest/gallery/file-target.ts';

/**
 * One file per target that names its target and then loads the suites. Only the target's name is written
 * down: its settings, access token included, reach the worker through provide, never the disk.
 */
export function writeTargetFiles(
  targets: readonly (ProvidedTarget & { name: string })[],
  projectRoot: string,
  suiteModules: readonly string[],
): TargetFiles {
  // vitest names a module by its real path (macOS's temporary folder is behind a symbolic link).
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'zc-targets-')));
  const importPath = (fromRoot: string) => relative(dir, join(projectRoot, fromRoot)).split('\\').join('/');
  const names = new Map<string, string>();
  targets.forEach((target, index) => {
    const file = `${String(index).padStart(3, '0')}.target.test.ts`;
    names.set(join(dir, file), target.name);
    writeFileSync(join(dir, file), targetFile(target.name, importPath(FILE_TARGET), suiteModules.map(importPath)));
  });
  return {
    dir,
    provided: Object.fromEntries(
      targets.map(({ name, config, ledgerPath, runId }) => [name, { config, ledgerPath, runId }]),
    ),
    targetOf: (testCase) => {
      const name = names.get(testCase.module.moduleId);
      if (name === undefined) throw new Error(`suite defect: ${testCase.module.moduleId} certifies no known target`);
      return name;
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function targetFile(name: string, fileTarget: string, suites: readonly string[]): string {
  return [
    `// Certifies the target ${JSON.stringify(name)}; written by selftest/gallery/target-files.ts for one run.`,
    `import { vi } from 'vitest';`,
    `import { certifyThisFileFor } from ${JSON.stringify(fileTarget)};`,
    '',
    `certifyThisFileFor(${JSON.stringify(name)});`,
    // The suites declare their tests as they load, and the worker may have loaded them for another target.
    'vi.resetModules();',
    ...suites.map((suite) => `await import(${JSON.stringify(suite)});`),
    '',
  ].join('\n');
}
