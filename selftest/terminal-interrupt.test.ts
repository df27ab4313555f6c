// Ctrl-C as a terminal sends it: SIGINT to every process of the foreground group of `npm run
// conformance` (npm, sh, node). One press is one stop: the tests stop, the sweep deletes this run's
// zones, and the run ends with 130. A signal delivered twice by a wrapper is still one press; only
// a deliberate second one leaves at once, clean-up or not. Here the launcher is the child and the only
// process signalled, so its own exit code is seen. A SIGTERM, as `kill` sends it, stops a run the same
// way and ends it with 143: either signal to the whole group of `npm run conformance` is one-exit-code's,
// whose runs check every output, the sweep and the shop left as found; the launcher ends with the
// report's exit code, which the SIGTERM case there reads.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { SAME_PRESS_MS } from '../helpers/runner/stop-signals.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { startEntry } from './run-node.ts';
import { suiteZonesOn, untilCreated } from './support/run-progress.ts';
import { startUnrulyProxy, type UnrulyProxy } from './support/unruly-proxy.ts';

const ONE_STOP = "SIGINT: stopping the tests, then deleting this run's zones";
const LEAVING = 'SIGINT again: leaving without finishing clean-up';

/** The reference behind some latency, so that a run on it is still among its tests when the signal comes. */
async function slowTarget(latencyMs: number): Promise<{
  reference: RunningReference;
  proxy: UnrulyProxy;
  env: Record<string, string>;
  reportsDir: string;
  close(): Promise<void>;
}> {
  const reference = await startReference({ token: 'tok-terminal' });
  const proxy = await startUnrulyProxy({ upstream: reference.url, latencyMs });
  const reportsDir = mkdtempSync(join(tmpdir(), 'zc-terminal-'));
  const env = {
    ...settingsForStyle(reference.style, proxy.url, reference.token),
    // The booking hooks are the operator's commands: they go straight to the reference.
    ...bookingHooksForReference(reference.url),
    ZONES_REPORTS_DIR: reportsDir,
  };
  return {
    reference,
    proxy,
    env,
    reportsDir,
    close: async () => {
      await proxy.close();
      await reference.close();
    },
  };
}

function readReport(dir: string): ConformanceReport {
  return JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
}

test('a SIGINT delivered twice, 30 ms apart as the tsx CLI relays one, is one stop', async () => {
  const target = await slowTarget(20);
  try {
    const run = startEntry('bin/conformance.ts', [], target.env);
    await untilCreated(run, target.reportsDir, 4);
    run.child.kill('SIGINT');
    await sleep(30);
    run.child.kill('SIGINT');
    const ended = await run.done;

    expect(ended.code).toBe(130);
    expect(ended.stderr.split(ONE_STOP)).toHaveLength(2);
    expect(ended.stderr).not.toContain('again');
    const report = readReport(target.reportsDir);
    expect(report.stopped).toEqual({ signal: 'SIGINT', exitCode: 130 });
    expect(report.exitCode).toBe(130);
    expect(report.cleanup.leftBehind).toEqual([]);
    expect(await suiteZonesOn(target.reference)).toEqual([]);
  } finally {
    await target.close();
  }
});

test('a deliberate second SIGINT leaves at once, before the clean-up and the report', async () => {
  // Slow enough that stopping the test in flight and sweeping take well over a second.
  const target = await slowTarget(150);
  try {
    const dir = target.reportsDir;
    // A previous run's verdict, which this run must not leave standing as its own.
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'conformance.json'), '{"verdict":"conformant"}\n');
    const run = startEntry('bin/conformance.ts', [], target.env);
    await untilCreated(run, dir, 2);
    run.child.kill('SIGINT');
    while (!run.printed.stderr.includes(ONE_STOP) && run.child.exitCode === null) await sleep(10);
    await sleep(SAME_PRESS_MS + 150);
    expect(run.child.exitCode, 'the run ended before the second signal: the target was not slow enough').toBeNull();
    run.child.kill('SIGINT');
    const ended = await run.done;

    expect(ended.code).toBe(130);
    expect(ended.stderr).toContain(`${LEAVING}; run npm run sweep to remove this run's zones`);
    expect(existsSync(join(dir, 'conformance.json')), 'no report: the run left before writing one').toBe(false);
  } finally {
    await target.close();
  }
});
