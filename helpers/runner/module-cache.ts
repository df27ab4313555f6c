// Where vitest keeps the suites' transformed modules between runs (its fsModuleCache). A run spends
// about a third of its CPU turning the suites' TypeScript into modules before the first request;
// with the cache, every run after the first on a machine reads them back instead. The cache is keyed
// by each file's content and vitest's configuration, and vitest empties it when the lockfile changes.
import { accessSync, constants, mkdirSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

/**
 * A directory this process can write, or undefined for no cache: beside the package's dependencies
 * when the package's folder is writable (reinstalling then starts afresh), else in the temporary
 * directory, one per user. An install nobody may write to runs without the cache, never fails for it.
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
