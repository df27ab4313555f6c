// Every file under a folder, for the tests that look through what a run wrote (for a token that must never be
// there, for a report past its size): none when the folder is not there.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}
