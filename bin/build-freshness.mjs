// Whether `npm run build` output can be run instead of the TypeScript: every module of the launcher
// side (bin/, helpers/, reference/) has its JavaScript beside it, written no earlier than the
// TypeScript was last changed. One edited file without a rebuild, and the launcher runs the
// TypeScript through tsx: slower to start, never stale. Plain JavaScript, so that it runs before
// anything is compiled.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The folders whose TypeScript the build compiles (tsconfig.build.json). */
export const BUILT_FOLDERS = ['bin', 'helpers', 'reference'];

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

/** True when the build beside the sources under `root` is complete and newer than every source. */
export function buildIsCurrent(root) {
  for (const folder of BUILT_FOLDERS) {
    for (const source of typeScriptIn(join(root, folder))) {
      const built = modifiedAt(source.replace(/\.ts$/, '.js'));
      if (built === undefined || built < modifiedAt(source)) return false;
    }
  }
  return true;
}
