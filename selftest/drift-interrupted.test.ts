// A signal to drift reaches both of its runs: each stops after the test under way, deletes its zones,
// and drift ends with the signal's code without comparing half-runs.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { type RunningReference, startReference } from '../reference/server.ts';
import { driftSettings } from './drift/drift-run.ts';
import { killGroup, shellStatus, startEntry, startNpmRun } from './run-node.ts';
import { untilCreated } from './support/run-progress.ts';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function shop(): Promise<RunningReference> {
  const reference = await startReference();
  closers.push(() => reference.close());
  return reference;
}

function pacedDrift(service: RunningReference, mock: RunningReference, reportsDir: string) {
  // Paced, so that each run is still under way once both have made their first zones.
  return { ...driftSettings(service, mock, reportsDir), ZONES_MAX_RPS: '20' };
}

test('SIGTERM to drift stops both runs, each deletes its zones, and drift exits 143 with no comparison', async () => {
  const service = await shop();
  const mock = await shop();
  const reportsDir = mkdtempSync(join(tmpdir(), 'zc-drift-stop-'));
  const drift = startEntry('bin/drift.ts', [], pacedDrift(service, mock, reportsDir));
  // Only drift is signalled, as a service manager would: the runs hear of it from drift alone.
  for (const side of ['service', 'mock']) await untilCreated(drift, join(reportsDir, 'drift', side), 3);
  drift.child.kill('SIGTERM');
  const run = await drift.done;
  expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(143);
  expect(run.stderr).toContain('stopping both runs');
  expect(existsSync(join(reportsDir, 'drift.json'))).toBe(false);
  // Each run was stopped, not left to finish: its certificate says so.
  for (const side of ['service', 'mock']) {
    const certificate = JSON.parse(readFileSync(join(reportsDir, 'drift', side, 'conformance.json'), 'utf8'));
    expect(certificate.stopped, side).toEqual({ signal: 'SIGTERM', exitCode: 143 });
    expect(certificate.exitCode, side).toBe(143);
  }
  expect(service.backdoor.all()).toEqual([]);
  expect(mock.backdoor.all()).toEqual([]);
});

test('Ctrl-C to the process group of npm run drift is one stop for each run: each deletes its zones, 130', async () => {
  const service = await shop();
  const mock = await shop();
  const reportsDir = mkdtempSync(join(tmpdir(), 'zc-drift-ctrl-c-'));
  const drift = startNpmRun('drift', [], pacedDrift(service, mock, reportsDir));
  try {
    for (const side of ['service', 'mock']) await untilCreated(drift, join(reportsDir, 'drift', side), 3);
    process.kill(-drift.child.pid!, 'SIGINT');
    const run = await drift.done;
    expect([run.signal, shellStatus(run)], `${run.stdout}\n${run.stderr}`).toEqual(['SIGINT', 130]);
    // The runs heard it once, from drift: a second copy would have been a second press, leaving without clean-up.
    expect(run.stderr).not.toContain('again');
    for (const side of ['service', 'mock']) {
      const certificate = JSON.parse(readFileSync(join(reportsDir, 'drift', side, 'conformance.json'), 'utf8'));
      expect(certificate.stopped, side).toEqual({ signal: 'SIGINT', exitCode: 130 });
      expect(certificate.cleanup.leftBehind, side).toEqual([]);
    }
    expect(service.backdoor.all()).toEqual([]);
    expect(mock.backdoor.all()).toEqual([]);
  } finally {
    killGroup(drift);
  }
});
