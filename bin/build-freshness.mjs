// Whether `npm run build` output can run instead of the TypeScript: every launcher module has its JavaScript in the
// output folder, no older than it; else tsx runs the TypeScript, slower but never stale. Plain JavaScript, run first.
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

export function buildIsCurrent(root) {
  for (const folder of BUILT_FOLDERS) {
    for (const source of typeScriptIn(join(root, folder))) {
      const built = statSync(builtModuleOf(root, source), { throwIfNoEntry: false })?.mtimeMs;
      if (built === undefined || built < statSync(source).mtimeMs) return false;
    }
  }
  return true;
}
