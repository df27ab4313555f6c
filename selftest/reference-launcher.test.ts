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
      const deadline = Date.now() + 20_000;
      while (!listeningLine() && Date.now() < deadline) await sleep(20);
      const listening = listeningLine();
      expect(listening, `the reference never said where it listens: ${run.printed.stderr}`).not.toBeNull();
      const port = Number(listening![1]);
      expect(await accepts(port)).toBe(true);

      process.kill(run.child.pid!, signal);
      const within = Date.now() + 5_000;
      while ((await accepts(port)) && Date.now() < within) await sleep(50);
      expect(await accepts(port), 'the server is still up after its npm died').toBe(false);
    } finally {
      killGroup(run);
    }
  },
);
