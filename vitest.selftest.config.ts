// The suite's own tests (`npm test`). The conformance suites in suites/ are not run directly here:
// they need a target, and selftest/ starts the targets and runs them through the real launcher.
import { defineConfig } from 'vitest/config';
import LongestFirst from './selftest/support/longest-first.ts';

export default defineConfig({
  test: {
    include: ['selftest/**/*.test.ts'],
    // One limit for every test and hook, there to end one that hangs, not to measure speed: many start
    // whole runs or other child processes, whose time grows with a slower or busier machine (one that
    // took 10 s here hit a 30 s limit on a slower one). Fifteen minutes is several times the longest
    // test beside a second npm test on these 2 cores, and past CHILD_LIMIT_MS (selftest/run-node.ts),
    // so a hung child is ended first and its output shown. No self-test checks that something is quick
    // (there are no timing assertions), so no test keeps a shorter limit of its own.
    testTimeout: 900_000,
    hookTimeout: 900_000,
    reporters: ['default', './selftest/closing-line-reporter.ts'],
    // Self-tests wait on child processes and sockets as much as on the CPU: run them side by side.
    // Five: two of them spend most of their time waiting on a rate limit (longest-first.ts), and
    // each worker they hold is one fewer for the files that compute. Timed in turn, 2026-11-24: four
    // against three 0.86 to 1.01 of the wall time (four pairs); five against four 0.89 and 0.92 of the
    // wall time and 0.94 of the CPU (two pairs); six against five 1.06 and 1.13 of the wall time.
    maxWorkers: 5,
    // A worker goes on from file to file with the modules it has loaded: starting a fresh one for each
    // of some sixty files cost about 40 s of CPU. What the client keeps per base URL is forgotten after
    // each file (selftest/support/forget-targets.ts), since a later file's server can reuse a port.
    isolate: false,
    setupFiles: ['selftest/support/forget-targets.ts'],
    // The files that mostly wait start first, so that none of them is left running alone at the end.
    sequence: { sequencer: LongestFirst },
  },
});
