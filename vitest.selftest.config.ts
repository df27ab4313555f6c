// The suite's own tests (`npm test`). The conformance suites in suites/ are not run directly here:
// they need a target, and selftest/ starts the targets and runs them through the real launcher.
import { defineConfig } from 'vitest/config';
import LongestFirst from './selftest/support/longest-first.ts';

export default defineConfig({
  test: {
    include: ['selftest/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 180_000,
    reporters: ['default', './selftest/closing-line-reporter.ts'],
    // Self-tests wait on child processes and sockets as much as on the CPU: run them side by side.
    // Four: two of them spend their first half minute or more waiting on a rate limit (longest-first.ts),
    // and with three the cores then sat half idle. Timed in turn against three, 2026-11-24: 0.86 to
    // 1.01 of the wall time (four pairs), for 1 to 3% more CPU.
    maxWorkers: 4,
    // A worker goes on from file to file with the modules it has loaded: starting a fresh one for each
    // of some sixty files cost about 40 s of CPU. What the client keeps per base URL is forgotten after
    // each file (selftest/support/forget-targets.ts), since a later file's server can reuse a port.
    isolate: false,
    setupFiles: ['selftest/support/forget-targets.ts'],
    // The files that mostly wait start first, so that none of them is left running alone at the end.
    sequence: { sequencer: LongestFirst },
  },
});
