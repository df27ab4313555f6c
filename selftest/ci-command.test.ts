// `zones-conformance ci --history DIR` night after night, as a GitHub job runs it: only DIR travels between
// nights (each night starts in a fresh folder), GITHUB_STEP_SUMMARY and GITHUB_OUTPUT are set. A first night on a
// correct shop, a second on the same shop with a CREATE-02 defect, then a night that cannot run.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { projectRoot, runCommand } from './run-node.ts';
import { type RewritingFront, startRewritingFront } from './support/rewriting-front.ts';
import { suiteZonesOn, untilCreated } from './support/run-progress.ts';

const history = join(mkdtempSync(join(tmpdir(), 'zc-ci-history-')), 'nights');
const TOKEN = 'ci_nights_token_0123456789';
const closers: (() => Promise<void>)[] = [];
/** The shop's one address, night after night; what stands behind it changes (rewriting-front.ts). */
let front: RewritingFront;
let correct: RunningReference;
let broken: RunningReference;

/** One night in a fresh folder: the command's exit code, its outputs and the summary it wrote. */
async function night(more: Record<string, string> = {}, options: string[] = []) {
  const job = mkdtempSync(join(tmpdir(), 'zc-ci-night-'));
  const [summary, output] = [join(job, 'summary'), join(job, 'output')];
  writeFileSync(summary, '');
  writeFileSync(output, '');
  const launcher = join(projectRoot, 'bin/zones-conformance.mjs');
  const run = await runCommand(process.execPath, [launcher, 'ci', '--history', history, ...options], {
    cwd: job,
    env: {
      ...settingsForStyle(correct.style, front.url, TOKEN),
      ...bookingHooksForReference(),
      ZONES_MODEL_RUNS: '0',
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: output,
      ...more,
    },
  });
  const lines = readFileSync(output, 'utf8').trim().split('\n');
  const outputs = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
  return { run, outputs, summary: readFileSync(summary, 'utf8'), job };
}

const nightsKept = () => readFileSync(join(history, 'conformance-history.jsonl'), 'utf8').trim().split('\n').length;

beforeAll(async () => {
  correct = await startReference({ token: TOKEN });
  broken = await startReference({ token: TOKEN, fault: 'create-as-published' });
  front = await startRewritingFront(correct.url);
  closers.push(
    () => front.close(),
    () => correct.close(),
    () => broken.close(),
  );
});
afterAll(async () => {
  for (const close of closers) await close();
});

test('night 1 on a correct shop passes: verdict=conformant, the summary opens with the verdict, DIR keeps the night', async () => {
  const first = await night();
  expect(first.run.code, first.run.stdout + first.run.stderr).toBe(0);
  expect(first.outputs).toEqual({
    verdict: 'conformant',
    'exit-code': '0',
    report: join('reports', 'conformance.html'),
  });
  expect(first.summary.split('\n')[0]).toMatch(/CONFORMANT/);
  expect(existsSync(join(first.job, 'reports', 'allure-report', 'index.html')), 'the HTML report was built').toBe(true);
  expect(first.run.stdout).toContain('tonight is the first baseline');
  expect(nightsKept()).toBe(1);
});

test('night 2, the shop now making zones published: exit 1, verdict=non-conformant, the summary names CREATE-02', async () => {
  front.upstream = broken.url;
  const second = await night();
  expect(second.run.code, second.run.stdout + second.run.stderr).toBe(1);
  expect(second.outputs).toMatchObject({ verdict: 'non-conformant', 'exit-code': '1' });
  expect(second.summary.split('\n')[0]).toMatch(/NON-CONFORMANT/);
  expect(second.summary).toContain('CREATE-02');
  expect(nightsKept()).toBe(2);
});

test('night 3, still broken: a known failure, not a new one, passes; night 4 cannot run and leaves DIR as it was', async () => {
  const third = await night();
  expect(third.run.code, third.run.stdout + third.run.stderr).toBe(0);
  expect(third.outputs.verdict).toBe('non-conformant');
  const baseline = readFileSync(join(history, 'conformance.json'), 'utf8');
  const fourth = await night({ ZONES_ACCESS_TOKEN: 'not_the_token_0123456789' });
  expect(fourth.run.code).toBe(3);
  expect(fourth.outputs).toMatchObject({ verdict: 'could-not-run', 'exit-code': '3' });
  expect(readFileSync(join(history, 'conformance.json'), 'utf8')).toBe(baseline);
  expect(nightsKept()).toBe(3);
});

test('a night with no booking hook is incomplete: it passes with a warning, and with --fail-on-incomplete it exits 2', async () => {
  front.upstream = correct.url;
  const noHooks = { ZONES_BOOKING_HOOK: '', ZONES_BOOKING_CLEANUP_HOOK: '' };
  const lenient = await night(noHooks);
  expect(lenient.run.code, lenient.run.stdout + lenient.run.stderr).toBe(0);
  expect(lenient.outputs).toMatchObject({ verdict: 'incomplete', 'exit-code': '2' });
  expect(lenient.run.stdout).toContain('incomplete: some MUST rule was not verified');
  const strict = await night(noHooks, ['--fail-on-incomplete']);
  expect(strict.run.code).toBe(2);
});

test('a night stopped by Ctrl-C to the job: the run stops once, its zones are deleted, 130, verdict=interrupted, DIR keeps its baseline', async () => {
  const job = mkdtempSync(join(tmpdir(), 'zc-ci-stopped-'));
  const output = join(job, 'output');
  writeFileSync(output, '');
  const baseline = readFileSync(join(history, 'conformance.json'), 'utf8');
  // A job's shell leads a process group of its own; the Ctrl-C (or the CI's cancel) goes to all of it.
  const child = spawn(process.execPath, [join(projectRoot, 'bin/zones-conformance.mjs'), 'ci', '--history', history], {
    cwd: job,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      ...settingsForStyle(correct.style, front.url, TOKEN),
      ...bookingHooksForReference(),
      // Paced, so that the run is still under way once it has made its first zones.
      ZONES_MAX_RPS: '20',
      GITHUB_OUTPUT: output,
    },
  });
  const printed = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => (printed.stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (printed.stderr += chunk.toString()));
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  await untilCreated(
    { child, printed, done: done.then(() => ({ code: null, signal: null, ...printed })) },
    join(job, 'reports'),
    3,
  );
  process.kill(-child.pid!, 'SIGINT');
  expect(await done, printed.stdout + printed.stderr).toBe(130);
  expect(printed.stderr).not.toContain('again');
  expect(readFileSync(output, 'utf8')).toContain('verdict=interrupted\nexit-code=130\n');
  expect(readFileSync(join(history, 'conformance.json'), 'utf8')).toBe(baseline);
  expect(await suiteZonesOn({ ...correct, url: front.url })).toEqual([]);
});
