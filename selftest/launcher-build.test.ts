// The launcher runs the compiled JavaScript only while it is current, and the TypeScript otherwise:
// a stale build must never certify a shop with yesterday's code. npm test builds first, so every
// other self-test goes through the compiled path; the TypeScript path is run here, in a copy of the
// project that has no build, and the build npm test made is shown to have written only to dist/ (a copy
// is built when the test runs outside npm test).
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BUILD_FOLDER, BUILT_FOLDERS, buildIsCurrent, builtModuleOf } from '../bin/build-freshness.mjs';
import { npmCommand, projectRoot, runCommand } from './run-node.ts';

/** A source in each built folder of `root`. */
const sourcesIn = (root: string) => BUILT_FOLDERS.map((folder) => join(root, folder, 'deep', 'module.ts'));

/** A tree with one source in each built folder, and its JavaScript in the build folder when `built`. */
function tree(built: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'zc-build-'));
  for (const source of sourcesIn(root)) {
    mkdirSync(dirname(source), { recursive: true });
    writeFileSync(source, 'export {};\n');
    if (!built) continue;
    mkdirSync(dirname(builtModuleOf(root, source)), { recursive: true });
    writeFileSync(builtModuleOf(root, source), 'export {};\n');
  }
  return root;
}

/** A copy of the project as a clone has it: the sources, no build, the dependencies shared. */
function unbuiltCopy(prefix: string, folders: readonly string[], files: readonly string[]): string {
  const copy = mkdtempSync(join(tmpdir(), prefix));
  // Without the JavaScript an earlier layout of the build left beside the sources of a working tree.
  const filter = (path: string) => !path.endsWith('.js');
  for (const name of folders) cpSync(join(projectRoot, name), join(copy, name), { recursive: true, filter });
  for (const name of files) cpSync(join(projectRoot, name), join(copy, name));
  symlinkSync(join(projectRoot, 'node_modules'), join(copy, 'node_modules'));
  return copy;
}

/** Every file below `dir` whose name ends with `ending`, as paths. */
function filesEndingIn(dir: string, ending: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(ending))
    .map((name) => join(dir, name));
}

const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000);

describe('whether the build is current', () => {
  test('with every module compiled after its source, it is', () => {
    const root = tree(true);
    for (const source of sourcesIn(root)) utimesSync(source, secondsAgo(60), secondsAgo(60));
    expect(buildIsCurrent(root)).toBe(true);
  });

  test('as extracted from a package, every file of one date, it is', () => {
    const root = tree(true);
    const packed = new Date('1985-10-26T08:15:00Z');
    for (const source of sourcesIn(root))
      for (const path of [source, builtModuleOf(root, source)]) utimesSync(path, packed, packed);
    expect(buildIsCurrent(root)).toBe(true);
  });

  test('one source changed after the build, in any folder, and it is not', () => {
    for (const folder of BUILT_FOLDERS) {
      const root = tree(true);
      utimesSync(builtModuleOf(root, join(root, folder, 'deep', 'module.ts')), secondsAgo(60), secondsAgo(60));
      expect(buildIsCurrent(root), folder).toBe(false);
    }
  });

  test('one module without its JavaScript, and it is not; nothing built at all, and it is not', () => {
    const root = tree(true);
    writeFileSync(join(root, 'helpers', 'deep', 'added.ts'), 'export {};\n');
    expect(buildIsCurrent(root)).toBe(false);
    expect(buildIsCurrent(tree(false))).toBe(false);
  });

  test('JavaScript beside the sources, where an earlier layout of the build wrote it, is no build', () => {
    const root = tree(false);
    for (const source of sourcesIn(root)) writeFileSync(source.replace(/\.ts$/, '.js'), 'export {};\n');
    expect(buildIsCurrent(root)).toBe(false);
  });
});

test('npm run build writes only below dist/, whose modules find the files of the source tree', async () => {
  // npm test builds before its tests, so the build to look at is that one, in the project itself. Run any
  // other way, the project's dist/ may be older than a setting of the build (buildIsCurrent compares only
  // the sources), so the build is made in a copy: in the project it would change, under the other
  // self-tests, which modules they run.
  const underNpmTest = process.env.npm_lifecycle_event === 'test';
  const built = underNpmTest ? projectRoot : await buildInCopy();

  const beside = BUILT_FOLDERS.flatMap((folder) => filesEndingIn(join(built, folder), '.js'));
  expect(beside).toEqual([]);
  const sources = BUILT_FOLDERS.flatMap((folder) => filesEndingIn(join(built, folder), '.ts')).filter(
    (path) => !path.endsWith('.d.ts'),
  );
  expect(sources.filter((source) => !existsSync(builtModuleOf(built, source)))).toEqual([]);
  expect(buildIsCurrent(built)).toBe(true);

  // The suites, the contract and vitest's setup files are not compiled: from dist/, the modules
  // must still name them in the source tree.
  const root = await runCommand(
    process.execPath,
    [
      '--input-type=module',
      '--eval',
      `console.log((await import('./${BUILD_FOLDER}/helpers/project-root.js')).projectRoot)`,
    ],
    { cwd: built },
  );
  // node names a module by its real path (macOS's temporary folder is behind a symbolic link).
  expect(root.stdout.trim(), root.stderr).toBe(`${realpathSync(built)}${sep}`);
});

/** npm run build in an unbuilt copy of the project; the copy's folder. */
async function buildInCopy(): Promise<string> {
  const copy = unbuiltCopy('zc-build-', BUILT_FOLDERS, [
    'package.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'tsconfig.types.json',
  ]);
  const npm = npmCommand();
  const build = await runCommand(npm.command, [...npm.args, 'run', 'build'], { cwd: copy });
  expect(build.code, build.stdout + build.stderr).toBe(0);
  return copy;
}

test('without a build, the launcher runs the TypeScript through tsx and certifies the same', async () => {
  // The project as a clone has it before npm run build: sources, no dist/.
  const copy = unbuiltCopy(
    'zc-unbuilt-',
    ['bin', 'helpers', 'reference', 'suites', 'contract', 'profiles', 'docs'],
    ['package.json', 'tsconfig.json'],
  );
  expect(buildIsCurrent(copy)).toBe(false);

  const reports = join(copy, 'reports');
  const run = await runCommand(process.execPath, ['bin/zones-conformance.mjs', 'conformance', '--rule', 'CREATE'], {
    cwd: copy,
    env: { ZONES_REPORTS_DIR: reports, ZONES_MODEL_RUNS: '0' },
  });
  expect(run.code, run.stderr).toBe(2);
  const report = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as {
    rules: { id: string; status: string }[];
  };
  expect(report.rules.filter((rule) => rule.id.startsWith('CREATE-')).map((rule) => rule.status)).toEqual([
    'passed',
    'passed',
    'passed',
  ]);
});
