// How the launcher tells one Ctrl-C delivered twice from a deliberate second one (helpers/runner/stop-signals.ts).
import { expect, test } from 'vitest';
import { readStopSignals, SAME_PRESS_MS } from '../helpers/runner/stop-signals.ts';

function launcher() {
  let now = 0;
  const calls: string[] = [];
  const onSignal = readStopSignals(
    { stop: (s) => calls.push(`stop ${s}`), leave: (s) => calls.push(`leave ${s}`) },
    () => now,
  );
  const at = (ms: number, signal: NodeJS.Signals) => {
    now = ms;
    onSignal(signal);
  };
  return { calls, at };
}

test('the first signal stops the run', () => {
  const run = launcher();
  run.at(0, 'SIGTERM');
  expect(run.calls).toEqual(['stop SIGTERM']);
});

test('the same signal again within the window is the same press: nothing more happens', () => {
  const run = launcher();
  run.at(1000, 'SIGINT');
  run.at(1030, 'SIGINT');
  run.at(1000 + SAME_PRESS_MS - 1, 'SIGINT');
  expect(run.calls).toEqual(['stop SIGINT']);
});

test('the same signal after the window leaves', () => {
  const run = launcher();
  run.at(1000, 'SIGINT');
  run.at(1000 + SAME_PRESS_MS, 'SIGINT');
  expect(run.calls).toEqual(['stop SIGINT', 'leave SIGINT']);
});

test('another signal leaves, however soon it comes', () => {
  const run = launcher();
  run.at(1000, 'SIGINT');
  run.at(1001, 'SIGTERM');
  expect(run.calls).toEqual(['stop SIGINT', 'leave SIGTERM']);
});

test('after a duplicate, a later signal still leaves', () => {
  const run = launcher();
  run.at(0, 'SIGINT');
  run.at(30, 'SIGINT');
  run.at(2000, 'SIGINT');
  expect(run.calls).toEqual(['stop SIGINT', 'leave SIGINT']);
});
