// Runs one of the project's TypeScript entry points in a child process, as a user would, and
// collects what it printed and how it ended.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface StartedEntry {
  child: ChildProcess;
  done: Promise<ChildRun>;
}

export function startEntry(entry: string, args: string[], env: Record<string, string | undefined>, timeoutMs = 170_000): StartedEntry {
  // Only the suite's settings the test chose: the developer's own ZONES_* must not leak in.
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ZONES_')));
  const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: projectRoot,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: timeoutMs,
  });
  const done = new Promise<ChildRun>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

export function runEntry(entry: string, args: string[], env: Record<string, string | undefined>, timeoutMs?: number): Promise<ChildRun> {
  return startEntry(entry, args, env, timeoutMs).done;
}
