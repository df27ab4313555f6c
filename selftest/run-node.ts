// Runs one of the project's TypeScript entry points in a child process, as a user would, and
// collects what it printed and how it ended.
import { type ChildProcess, spawn } from 'node:child_process';
import { constants } from 'node:os';
import { fileURLToPath } from 'node:url';
import { PROXY_VARIABLES } from '../helpers/connection/proxy.ts';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface StartedEntry {
  child: ChildProcess;
  /** What it has printed so far, while it runs. */
  printed: { stdout: string; stderr: string };
  done: Promise<ChildRun>;
}

/**
 * How long a child may take before it is ended: a limit for a child that hangs, never a measure of
 * speed. Far past the longest run a self-test starts (well under a minute here, beside a second npm
 * test), so that a machine three times slower and busy besides stays clear of it; and under the
 * tests' own limit (vitest.selftest.config.ts), so that a hung child is ended, and its output shown,
 * before vitest gives up on the test and leaves the child running.
 */
export const CHILD_LIMIT_MS = 600_000;

const MACHINE_NETWORK = new Set([...PROXY_VARIABLES, 'NODE_EXTRA_CA_CERTS']);

/**
 * Only the suite's settings the test chose: the developer's own ZONES_* must not leak in, nor the
 * machine's proxy variables (a CI runner often has some, and its proxy cannot reach our 127.0.0.1),
 * nor a CA bundle of its own. A test that wants any of them sets them.
 */
function childEnv(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('ZONES_') && !MACHINE_NETWORK.has(name)),
  );
  return { ...inherited, ...env };
}

function collect(child: ChildProcess): StartedEntry {
  const printed = { stdout: '', stderr: '' };
  const done = new Promise<ChildRun>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => (printed.stdout += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (printed.stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, ...printed }));
  });
  return { child, printed, done };
}

/** The commands of bin/zones-conformance.mjs, which the npm scripts run: bin/<command>.ts each. */
const LAUNCHED = /^bin\/(conformance|sweep|reference|mock|report|drift|ci)\.ts$/;

/**
 * How node starts an entry point: a command of the package through its launcher, as `npm run` and the
 * installed command start it (the build when current, else tsx); anything else through tsx.
 */
function nodeArguments(entry: string, args: string[]): string[] {
  const command = LAUNCHED.exec(entry)?.[1];
  return command === undefined ? ['--import', 'tsx', entry, ...args] : ['bin/zones-conformance.mjs', command, ...args];
}

export function startEntry(
  entry: string,
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs = CHILD_LIMIT_MS,
): StartedEntry {
  const child = spawn(process.execPath, nodeArguments(entry, args), {
    cwd: projectRoot,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
  });
  return collect(child);
}

export function runEntry(
  entry: string,
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs?: number,
): Promise<ChildRun> {
  return startEntry(entry, args, env, timeoutMs).done;
}

/** Any command, run from `cwd` with the same clean environment as an entry point. */
export function runCommand(
  command: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; timeoutMs?: number },
): Promise<ChildRun> {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: childEnv(options.env ?? {}),
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: options.timeoutMs ?? CHILD_LIMIT_MS,
  });
  return collect(child).done;
}

/** Under npm (npm test) its own CLI, else the npm on the PATH. */
export function npmCommand(): { command: string; args: string[] } {
  const cli = process.env.npm_execpath;
  return cli && /npm-cli\.[cm]?js$/.test(cli)
    ? { command: process.execPath, args: [cli] }
    : { command: 'npm', args: [] };
}

/**
 * `npm run <script> -- <args>` as a terminal starts it: npm leads a process group of its own, so a
 * test can signal the whole group as Ctrl-C does. Call killGroup when done, whatever happened.
 */
export function startNpmRun(script: string, args: string[], env: Record<string, string | undefined>): StartedEntry {
  const npm = npmCommand();
  const child = spawn(npm.command, [...npm.args, 'run', '--silent', script, '--', ...args], {
    cwd: projectRoot,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return collect(child);
}

/** Ends whatever is left of a group that startNpmRun began; a group already gone is fine. */
export function killGroup(started: StartedEntry): void {
  if (started.child.pid === undefined) return;
  try {
    process.kill(-started.child.pid!, 'SIGKILL');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** The exit status a shell would show: 128 plus the signal's number for a process a signal ended. */
export function shellStatus(run: ChildRun): number | null {
  return run.signal ? 128 + constants.signals[run.signal] : run.code;
}
