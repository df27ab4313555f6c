// Where the runs keep vitest's transformed modules: a writable place, and never a failed run for want
// of one.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { moduleCacheDir } from '../helpers/runner/run-suites.ts';

test('the cache sits beside the package dependencies when the package folder is writable', () => {
  const root = mkdtempSync(join(tmpdir(), 'zc-module-cache-'));
  expect(moduleCacheDir(root)).toBe(join(root, 'node_modules', '.cache', 'zones-conformance-modules'));
});

test('a package folder that cannot hold it sends the cache to the temporary directory, not the run to a failure', () => {
  const parent = mkdtempSync(join(tmpdir(), 'zc-module-cache-'));
  // A file where the folder would be: no directory can be made under it, whoever runs the test.
  const root = join(parent, 'not-a-folder');
  writeFileSync(root, '');
  const directory = moduleCacheDir(root);
  expect(directory).toBeDefined();
  expect(directory!.startsWith(tmpdir())).toBe(true);
  expect(directory).toContain('zones-conformance-modules-');
});
