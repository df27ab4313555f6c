// `npm run reference` stops when its npm process is killed, however it dies: the server is npm's
// grandchild (npm runs the script through sh) and no signal reaches it, yet it must not stay up,
// orphaned, holding its port.
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { killGroup, startNpmRun } from './run-node.ts';

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

test.for(['SIGTERM', 'SIGKILL'] as const)(
  'killing the npm of npm run reference with %s stops the server',
  async (signal) => {
    const run = startNpmRun('reference', ['--port', '0'], {});
    try {
      const listeningLine = () => run.printed.stdout.match(/listening on http:\/\/127\.0\.0\.1:(\d+)/);
      // No deadline: a slow machine only says it later; a child that ends without saying it ends the wait.
      while (!listeningLine() && run.child.exitCode === null && run.child.signalCode === null) await sleep(20);
      const listening = listeningLine();
      expect(listening, `the reference never said where it listens: ${run.printed.stderr}`).not.toBeNull();
      const port = Number(listening![1]);
      expect(await accepts(port)).toBe(true);

      process.kill(run.child.pid!, signal);
      // The server notices its launcher's end by itself within a second or so; a minute is "never",
      // however slow the machine, and ends with a failure that says so rather than the test's limit.
      const within = Date.now() + 60_000;
      while ((await accepts(port)) && Date.now() < within) await sleep(50);
      expect(await accepts(port), 'the server is still up after its npm died').toBe(false);
    } finally {
      killGroup(run);
    }
  },
);
