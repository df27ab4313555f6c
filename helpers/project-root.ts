// The project's folder, whichever copy of this module runs: helpers/ in the source tree (vitest, tsx), or
// dist/helpers/, one folder deeper, in `npm run build`'s output. The suites, the contract, the setup files, the
// profiles and allurerc.ts are only in the source tree, so a path to them starts here, not at import.meta.url.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The build writes JavaScript only into its output folder, never beside the TypeScript. */
const runsFromBuild = import.meta.url.endsWith('.js');

/** The project's folder, with a trailing separator. */
export const projectRoot = fileURLToPath(new URL(runsFromBuild ? '../..' : '..', import.meta.url));

/** A file or folder of the source tree, from its path relative to the project's folder. */
export function inProject(path: string): string {
  return join(projectRoot, path);
}

type SuitePackage = { name: string; version: string };

/** The suite's own name and version, from its package.json wherever it is installed. */
export function suitePackage(): SuitePackage {
  const { name, version } = JSON.parse(readFileSync(inProject('package.json'), 'utf8')) as SuitePackage;
  return { name, version };
}
