// The installed command as a shell uses it: `--version`, and a reader that stops early
// (`zones-conformance --help | head -1`), which must end the command quietly, not with a stack trace.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { type ChildRun, projectRoot, runCommand, runEntry } from './run-node.ts';

const LAUNCHER = 'bin/zones-conformance.mjs';
const { name, version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
};

test('--version prints the package name and version and exits 0, with settings that would stop a run', async () => {
  // Bad settings are not read, as with --list: a version is no run.
  const settings = { ZONES_STATUSES: 'live', ZONES_BASE_URL: '' };
  for (const run of [
    await runCommand(process.execPath, [LAUNCHER, '--version'], { cwd: projectRoot, env: settings }),
    await runEntry('bin/conformance.ts', ['--version'], settings),
  ]) {
    expect(run).toMatchObject({ code: 0, stdout: `${name} ${version}\n`, stderr: '' });
  }
});

/**
 * `zones-conformance --help` with its standard output closed by the reader before the command has
 * printed anything, so that every write meets a closed pipe: the first one, the launcher's own help
 * header, included. (Closed after the first line instead, as `| head -1` closes it, the command's
 * next writes may or may not win the race with the close; this way none can.)
 */
function helpIntoClosedPipe(): Promise<ChildRun> {
  const child = spawn(process.execPath, [LAUNCHER, '--help'], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  // The child is still starting node: this closes the read end long before its first write.
  child.stdout.destroy();
  const printed = { stdout: '', stderr: '' };
  child.stderr.on('data', (chunk: Buffer) => (printed.stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, ...printed }));
  });
}

test('--help into a reader that has gone ends quietly: exit 0, nothing on stderr', async () => {
  const run = await helpIntoClosedPipe();
  expect(run.stderr, 'no EPIPE stack trace').toBe('');
  expect([run.code, run.signal]).toEqual([0, null]);
});

test('zones-conformance --help | head -1, as a shell runs it, prints the first line and ends quietly', async () => {
  // pipefail: the status is the command's, not head's.
  const run = await runCommand('bash', ['-c', `set -o pipefail; "${process.execPath}" ${LAUNCHER} --help | head -1`], {
    cwd: projectRoot,
  });
  expect(run.stdout).toMatch(/^Usage: zones-conformance \[command\] \[options\]/);
  expect(run.stdout.split('\n')).toHaveLength(2);
  expect(run.stderr, 'no EPIPE stack trace').toBe('');
  expect(run.code).toBe(0);
});
