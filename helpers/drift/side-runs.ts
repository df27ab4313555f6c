// Drift's two targets, side by side. First both preflights: a mock that needs other settings, or cannot be reached,
// is known before the service's suite has made and deleted its zones for nothing, and the service's passing lets the
// report say it takes the settings the mock refused. Then two ordinary runs of `zones-conformance conformance` in
// child processes, so a run's ownership, clean-up, pacing and safety rules hold on both by construction, with no code
// of drift's own. A signal reaches both, and drift waits for their clean-up before it ends.
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { Environment, TargetConfig } from '../config.ts';
import type { Secrets } from '../evidence/secrets.ts';
import { inProject } from '../project-root.ts';
import { newRunId, prepareTarget } from '../runner/certify.ts';
import {
  exchangesPath,
  inSideNames,
  OPERATOR_PREFIX,
  SIDES,
  type Side,
  sideEnvironment,
  sideReportsDir,
  styleSettingsNamed,
} from './targets.ts';

/**
 * Each side's preflight, the one a run makes (a list read, one create, its read-back and its delete): why it refused the
 * side. The mock's first: one that cannot be reached or rejects its token stops drift before a zone is made on the service.
 */
export async function preflightBoth(
  configs: Record<Side, TargetConfig>,
  secrets: Secrets,
): Promise<Record<Side, string | undefined>> {
  const check = (side: Side): Promise<string | undefined> =>
    prepareTarget(
      { name: side, config: configs[side] },
      { runId: newRunId(), onWaiting: (line) => printAs(side, line, secrets, 'stderr') },
    ).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
  const mock = await check('mock');
  if (mock !== undefined && styleSettingsNamed(inSideNames(mock, 'mock')).length === 0)
    return { service: undefined, mock };
  return { service: await check('service'), mock };
}

export interface SideRun {
  side: Side;
  reportsDir: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SideRunOptions {
  env: Environment;
  reportsDir: string;
  seed: number;
  /** Each run prints only its verdict, no line per test. */
  quiet: boolean;
  secrets: Secrets;
}

/** A line a side printed, masked and told by its side: two runs print at once. */
function printAs(side: Side, line: string, secrets: Secrets, stream: 'stdout' | 'stderr'): void {
  // The mock's run knows its address and token as ZONES_BASE_URL and ZONES_ACCESS_TOKEN; the operator set them as ZONES_MOCK_*.
  (stream === 'stderr' ? console.error : console.log)(`[${side}] ${inSideNames(secrets.mask(line), side)}`);
}

/** Prints a child's output a line at a time. */
function relayLines(child: ChildProcess, side: Side, secrets: Secrets): void {
  for (const stream of ['stdout', 'stderr'] as const) {
    let pending = '';
    child[stream]!.setEncoding('utf8');
    child[stream]!.on('data', (chunk: string) => {
      const lines = (pending + chunk).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) printAs(side, line, secrets, stream);
    });
    child[stream]!.on('end', () => {
      if (pending !== '') printAs(side, pending, secrets, stream);
    });
  }
}

/** Both runs; `signal` passes a signal on to both: the first stops each after its test and clean-up, a second leaves. */
export function startSides(options: SideRunOptions) {
  const launcher = inProject('bin/zones-conformance.mjs');
  const children: ChildProcess[] = [];
  const runs = SIDES.map((side) => {
    const reportsDir = sideReportsDir(options.reportsDir, side);
    // Only this run's exchanges: the file is appended to, test by test.
    rmSync(exchangesPath(reportsDir), { force: true });
    const args = [launcher, 'conformance', `--seed=${options.seed}`, ...(options.quiet ? ['--quiet'] : [])];
    // Every exchange as data; every command the run prints (replays, sweeps) reads the operator's variables.
    args.push('--record-exchanges', exchangesPath(reportsDir), '--target-variables', OPERATOR_PREFIX[side]);
    // In a process group of its own: a Ctrl-C to drift's group reaches the run once, from drift, never a second
    // time late enough on a busy machine to read as the second press that leaves without cleaning up.
    const child = spawn(process.execPath, args, {
      cwd: process.cwd(),
      env: sideEnvironment(options.env, side, options.reportsDir),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    children.push(child);
    relayLines(child, side, options.secrets);
    return new Promise<SideRun>((resolve, reject) => {
      child.on('error', reject);
      child.on('close', (code, signal) => resolve({ side, reportsDir, code, signal }));
    });
  });
  return {
    done: Promise.all(runs),
    signal: (signal: NodeJS.Signals) => {
      for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}
