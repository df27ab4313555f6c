// A long-running entry point must not outlive the process that launched it. Killing the npm of
// `npm run reference` does not reach the server: npm runs the script through sh, so the server is
// npm's grandchild, and a dead parent only re-parents its children. Node has no event for that,
// so the watch re-reads the line of parents twice a second and calls back once it has changed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const EVERY_MS = 500;

/** The parent of another process, or undefined when that process is gone or cannot be read. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (command) state ppid ...": the command may hold spaces and brackets, so read after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    // No /proc (macOS): ask ps.
    try {
      const ppid = Number(
        execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], {
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'ignore'],
        }).trim(),
      );
      return Number.isInteger(ppid) && ppid > 0 ? ppid : undefined;
    } catch {
      return undefined;
    }
  }
}

/** This process's parent, its parent's parent, and so on, as far as `generations` and the platform allow. */
function ancestry(generations: number): number[] {
  const line = [process.ppid];
  while (line.length < generations) {
    const parent = parentOf(line.at(-1)!);
    if (parent === undefined) break;
    line.push(parent);
  }
  return line;
}

/**
 * Calls `onGone` once the parent, or under `npm run` also the npm behind the script's shell, has
 * died. A generation that cannot be read at the start (no /proc and no ps) is not watched.
 */
export function watchLauncher(onGone: (what: string) => void): void {
  const watched = ancestry(process.env.npm_lifecycle_event ? 2 : 1);
  const timer = setInterval(() => {
    const now = ancestry(watched.length);
    const changed = watched.findIndex((pid, i) => pid !== now[i]);
    if (changed < 0) return;
    clearInterval(timer);
    onGone(
      changed === 0 ? `its parent (pid ${watched[0]}) has gone` : `its launcher (pid ${watched[changed]}) has gone`,
    );
  }, EVERY_MS);
  // The watch alone must not keep the process alive.
  timer.unref();
}
