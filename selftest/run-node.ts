// Runs one of the project's TypeScript entry points in a child process, as a user would, and
// collects what it printed and how it ended.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export interface ChildRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runEntry(entry: string, args: string[], env: Record<string, string | undefined>, timeoutMs = 170_000): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    // Only the suite's settings the test chose: the developer's own ZONES_* must not leak in.
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('ZONES_')));
    const child = spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
      cwd: projectRoot,
      env: { ...inherited, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
