// One run, one exit code: whatever ended it, every output names the code the process left with. Each
// run is `npm run conformance` as a terminal starts it (its own process group), and each of its outputs
// is read: conformance.json, conformance.md, summary.md, the certificate page, junit.xml, the console.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { startReference } from '../reference/server.ts';
import { type ChildRun, killGroup, shellStatus, startNpmRun } from './run-node.ts';
import { startOutageFront } from './support/fronts.ts';
import { untilCreated } from './support/run-progress.ts';
import { startUnrulyProxy } from './support/unruly-proxy.ts';

const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing.splice(0)) await close();
});

interface Case {
  label: string;
  code: number;
  verdict: string;
  /** How the exit code is worded after "exit code " where it is not the verdict's own. */
  why?: string;
  /** The settings of a run that ends this way, given where its reports go. */
  settings(reportsDir: string): Promise<Record<string, string>>;
  /** Sent to the whole group once the run has made a few zones. */
  signal?: NodeJS.Signals;
}

async function shop(options: { fault?: string; hooks?: boolean; in?: 'outage' | 'latency' } = {}) {
  const reference = await startReference({ fault: options.fault });
  closing.push(() => reference.close());
  let url = reference.url;
  if (options.in === 'outage') {
    const front = await startOutageFront(reference.url, { after: 60 });
    closing.push(front.close);
    url = front.url;
  } else if (options.in === 'latency') {
    const proxy = await startUnrulyProxy({ upstream: reference.url, latencyMs: 20 });
    closing.push(() => proxy.close());
    url = proxy.url;
  }
  return {
    ...settingsForStyle(reference.style, url, reference.token),
    ...(options.hooks === false ? {} : bookingHooksForReference(reference.url)),
  };
}

const cases: Case[] = [
  { label: 'conformant', code: 0, verdict: 'conformant', settings: () => shop() },
  {
    label: 'non-conformant',
    code: 1,
    verdict: 'non-conformant',
    settings: () => shop({ fault: 'create-without-status' }),
  },
  // No booking hook: DELETE-02 cannot be checked.
  { label: 'incomplete', code: 2, verdict: 'incomplete', settings: () => shop({ hooks: false }) },
  {
    label: 'could not complete',
    code: 3,
    verdict: 'could-not-complete',
    settings: async () => ({
      ...(await shop({ in: 'outage' })),
      ZONES_MODEL_RUNS: '0',
      ZONES_OUTAGE_BUDGET_MS: '2000',
    }),
  },
  {
    label: 'stopped by SIGINT',
    code: 130,
    verdict: 'incomplete',
    why: '130, stopped by SIGINT',
    signal: 'SIGINT',
    settings: () => shop({ in: 'latency' }),
  },
  {
    label: 'stopped by SIGTERM',
    code: 143,
    verdict: 'incomplete',
    why: '143, stopped by SIGTERM',
    signal: 'SIGTERM',
    settings: () => shop({ in: 'latency' }),
  },
];

async function runToTheEnd(env: Record<string, string>, signal?: NodeJS.Signals): Promise<ChildRun> {
  const run = startNpmRun('conformance', [], env);
  try {
    if (signal) {
      await untilCreated(run, env.ZONES_REPORTS_DIR!, 4);
      process.kill(-run.child.pid!, signal);
    }
    return await run.done;
  } finally {
    killGroup(run);
  }
}

test.for(cases)('$label: exit $code, and every output says so', async ({ code, verdict, why, signal, settings }) => {
  const dir = mkdtempSync(join(tmpdir(), 'zc-exit-'));
  const run = await runToTheEnd({ ...(await settings(dir)), ZONES_REPORTS_DIR: dir }, signal);
  const file = (name: string) => readFileSync(join(dir, name), 'utf8');
  const worded = why ?? String(code);

  expect(shellStatus(run), run.stderr).toBe(code);
  expect(JSON.parse(file('conformance.json'))).toMatchObject({ verdict, exitCode: code });
  expect(file('conformance.md')).toContain(`| Verdict | **${verdict}** (exit code ${worded}) |`);
  expect(file('summary.md')).toContain(`**${verdict}** (exit code ${worded})`);
  expect(file('conformance.html')).toContain(`Exit code ${worded}.`);
  expect(file('junit.xml')).toContain(`<property name="exit code" value="${code}"/>`);
  expect(run.stdout).toContain(`(exit code ${worded})`);
});

test('could not run: exit 3, and every output says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zc-exit-'));
  const run = await runToTheEnd({ ZONES_REPORTS_DIR: dir, ZONES_ENVELOPE: 'boxed' });
  const file = (name: string) => readFileSync(join(dir, name), 'utf8');

  expect(shellStatus(run), run.stderr).toBe(3);
  expect(JSON.parse(file('conformance.json'))).toMatchObject({ verdict: 'could-not-run', exitCode: 3 });
  expect(file('conformance.md')).toContain('| Verdict | **could-not-run** (exit code 3) |');
  expect(file('summary.md')).toContain('(exit code 3)');
  expect(file('conformance.html')).toContain('Exit code 3.');
  expect(file('junit.xml')).toContain('<property name="exit code" value="3"/>');
  expect(run.stderr).toMatch(/^zones-conformance: cannot run: .*ZONES_ENVELOPE/);
});
