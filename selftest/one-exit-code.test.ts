// One run, one exit code: whatever ended it, every output names the code the process left with. Each
// run is `npm run conformance` as a terminal starts it (its own process group), and each of its outputs
// is read: conformance.json, conformance.md, summary.md, the certificate page, junit.xml, the console.
// A run of a signal is also the one that shows a stop leaves no zone behind and reads as a stop, not a
// suite error. A SIGINT to the launcher alone, which then ends with its own 130, is terminal-interrupt's;
// a SIGTERM's 143 is the report's exit code, which the launcher ends with (bin/conformance.ts) and the
// SIGTERM case here reads.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type ChildRun, killGroup, shellStatus, startNpmRun } from './run-node.ts';
import { startOutageFront } from './support/fronts.ts';
import { suiteZonesOn, untilCreated } from './support/run-progress.ts';
import { startUnrulyProxy } from './support/unruly-proxy.ts';

const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing.splice(0)) await close();
});

interface Shop {
  reference: RunningReference;
  env: Record<string, string>;
}

interface Case {
  label: string;
  code: number;
  verdict: string;
  /** How the exit code is worded after "exit code " where it is not the verdict's own. */
  why?: string;
  /** The shop of a run that ends this way, and its settings. */
  shop(): Promise<Shop>;
  /**
   * The launcher's options: a run that ends this way whatever rules it checks is narrowed to a few.
   * The model-based suite (ZONES_MODEL_RUNS) is left out of those, as it only adds to a run's cost.
   */
  args?: string[];
  /** Sent to the whole group once the run has made a few zones. */
  signal?: NodeJS.Signals;
  /** What the rules the run was narrowed to came to: the reason for its end, not only the selection. */
  statuses?: Record<string, string>;
}

async function shop(options: { fault?: string; hooks?: boolean; in?: 'outage' | 'latency' } = {}): Promise<Shop> {
  const reference = await startReference({ fault: options.fault });
  closing.push(() => reference.close());
  let url = reference.url;
  if (options.in === 'outage') {
    // Past the preflight's four requests, inside the tests of CREATE (some fifteen requests in all).
    const front = await startOutageFront(reference.url, { after: 9 });
    closing.push(front.close);
    url = front.url;
  } else if (options.in === 'latency') {
    const proxy = await startUnrulyProxy({ upstream: reference.url, latencyMs: 20 });
    closing.push(() => proxy.close());
    url = proxy.url;
  }
  const env = {
    ...settingsForStyle(reference.style, url, reference.token),
    ...(options.hooks === false ? {} : bookingHooksForReference(reference.url)),
  };
  return { reference, env };
}

const withoutModel = async (made: Promise<Shop>): Promise<Shop> => {
  const { reference, env } = await made;
  return { reference, env: { ...env, ZONES_MODEL_RUNS: '0' } };
};

const cases: Case[] = [
  // Every rule, or the verdict would be at best incomplete.
  { label: 'conformant', code: 0, verdict: 'conformant', shop: () => withoutModel(shop()) },
  {
    label: 'non-conformant',
    code: 1,
    verdict: 'non-conformant',
    args: ['--rule', 'CREATE-01'],
    statuses: { 'CREATE-01': 'failed' },
    shop: () => withoutModel(shop({ fault: 'create-unlisted' })),
  },
  // A partial run is incomplete whatever it finds; DELETE-02 without a booking hook would be, even in a whole run.
  {
    label: 'incomplete',
    code: 2,
    verdict: 'incomplete',
    args: ['--rule', 'DELETE-02'],
    statuses: { 'DELETE-02': 'not-verified' },
    shop: () => withoutModel(shop({ hooks: false })),
  },
  {
    label: 'could not complete',
    code: 3,
    verdict: 'could-not-complete',
    args: ['--rule', 'CREATE'],
    shop: async () => {
      const { reference, env } = await withoutModel(shop({ in: 'outage' }));
      return { reference, env: { ...env, ZONES_OUTAGE_BUDGET_MS: '2000' } };
    },
  },
  {
    label: 'stopped by SIGINT',
    code: 130,
    verdict: 'incomplete',
    why: '130, stopped by SIGINT',
    signal: 'SIGINT',
    shop: () => shop({ in: 'latency' }),
  },
  {
    label: 'stopped by SIGTERM',
    code: 143,
    verdict: 'incomplete',
    why: '143, stopped by SIGTERM',
    signal: 'SIGTERM',
    shop: () => shop({ in: 'latency' }),
  },
];

async function runToTheEnd(
  env: Record<string, string>,
  args: string[] = [],
  signal?: NodeJS.Signals,
): Promise<ChildRun & { created?: number }> {
  const run = startNpmRun('conformance', args, env);
  try {
    if (!signal) return await run.done;
    const created = await untilCreated(run, env.ZONES_REPORTS_DIR!, 4);
    process.kill(-run.child.pid!, signal);
    return { ...(await run.done), created };
  } finally {
    killGroup(run);
  }
}

test.for(cases)('$label: exit $code, and every output says so', async (each) => {
  const { code, verdict, why, signal } = each;
  const dir = mkdtempSync(join(tmpdir(), 'zc-exit-'));
  const { reference, env } = await each.shop();
  const run = await runToTheEnd({ ...env, ZONES_REPORTS_DIR: dir }, each.args, signal);
  const file = (name: string) => readFileSync(join(dir, name), 'utf8');
  const worded = why ?? String(code);
  const report = JSON.parse(file('conformance.json'));

  expect(shellStatus(run), run.stderr).toBe(code);
  expect(report).toMatchObject({ verdict, exitCode: code });
  const statuses = Object.keys(each.statuses ?? {}).map((id) => [
    id,
    report.rules.find((r: { id: string }) => r.id === id)?.status,
  ]);
  expect(Object.fromEntries(statuses)).toEqual(each.statuses ?? {});
  expect(file('conformance.md')).toContain(`| Verdict | **${verdict}** (exit code ${worded}) |`);
  expect(file('summary.md')).toContain(`**${verdict}** (exit code ${worded})`);
  expect(file('conformance.html')).toContain(`Exit code ${worded}.`);
  expect(file('junit.xml')).toContain(`<property name="exit code" value="${code}"/>`);
  expect(run.stdout).toContain(`(exit code ${worded})`);
  if (!signal) return;

  // A stop partway through: the tests stop, the sweep deletes every zone the run made, and the reports
  // say what the process did first thing under the verdict. A stop is not a defect of the suite.
  expect(run.created, 'the run had made zones before it was stopped').toBeGreaterThanOrEqual(4);
  // npm leads the group and got the signal as well: it ends by it once its script has ended, which a
  // shell shows as the same code. The launcher ends with its report's exitCode, read below; it is seen
  // ending so where it is the child, in terminal-interrupt.
  expect(run.signal).toBe(signal);
  // The signal reached npm, sh and node, and npm relays its own: still one stop.
  expect(run.stderr).toContain(`${signal}: stopping the tests, then deleting this run's zones`);
  expect(run.stderr).not.toContain('again');
  expect(report.stopped, 'the signal came after the tests had all run').toEqual({ signal, exitCode: code });
  expect(report.suiteErrors.join('\n')).not.toContain(signal);
  expect(run.stdout).not.toMatch(/SUITE ERROR/);
  const stopped = `The run was stopped by ${signal} before every test had run; exit code ${code}.`;
  expect(file('conformance.md')).toContain(`**${stopped}**`);
  expect(file('conformance.html')).toContain(`<p class="alert">${stopped}</p>`);
  expect(report.cleanup.leftBehind).toEqual([]);
  expect(await suiteZonesOn(reference)).toEqual([]);
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
