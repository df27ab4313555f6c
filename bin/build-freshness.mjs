// Whether `npm run build` output can be run instead of the TypeScript: every module of the launcher side
// has its JavaScript below the output folder, no older than it. Else tsx runs the TypeScript: slower to
// start, never stale. Plain JavaScript, so that it runs before anything is compiled.
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The folders whose TypeScript the build compiles (tsconfig.build.json's include). */
export const BUILT_FOLDERS = ['bin', 'helpers', 'reference'];

/** tsconfig.build.json's outDir: one folder apart, so that no JavaScript sits beside a `.ts`. */
export const BUILD_FOLDER = 'dist';

export function builtModuleOf(root, source) {
  return join(root, BUILD_FOLDER, relative(root, source)).replace(/\.ts$/, '.js');
}

function* typeScriptIn(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* typeScriptIn(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

function modifiedAt(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

export function buildIsCurrent(root) {
  for (const folder of BUILT_FOLDERS) {
    for (const source of typeScriptIn(join(root, folder))) {
      const built = modifiedAt(builtModuleOf(root, source));
      if (built === undefined || built < modifiedAt(source)) return false;
    }
  }
  return true;
}
