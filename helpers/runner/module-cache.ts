// Where vitest keeps the suites' transformed modules between runs (its fsModuleCache), keyed by each
// file's content and vitest's configuration; vitest empties it when the lockfile changes.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * Beside the package's dependencies when that is writable (reinstalling then starts afresh), else one per
 * user in the temporary directory; where neither is, undefined: the run goes on without a cache.
 */
export function moduleCacheDir(projectRoot: string): string | undefined {
  const candidates = [
    join(projectRoot, 'node_modules', '.cache', 'zones-conformance-modules'),
    join(tmpdir(), `zones-conformance-modules-${userName()}`),
  ];
  for (const directory of candidates) {
    try {
      mkdirSync(directory, { recursive: true });
      accessSync(directory, constants.W_OK);
      return directory;
    } catch {
      // Not writable here: the next place, or no cache.
    }
  }
  return undefined;
}

function userName(): string {
  try {
    return userInfo().username.replace(/[^\w.-]/g, '_');
  } catch {
    return String(process.getuid?.() ?? 'user');
  }
}
