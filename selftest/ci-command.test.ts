// `zones-conformance ci --history DIR` night after night, as a GitHub job runs it: only DIR travels between
// nights (each night starts in a fresh folder), GITHUB_STEP_SUMMARY and GITHUB_OUTPUT are set. Four nights run the
// whole way, certifications and Allure report included: a first night on a correct shop, a second on the same
// address with a CREATE-02 defect behind it, a night that cannot run, and a night stopped by Ctrl-C. Every other
// turn of the ci logic (a known failure, an incomplete night, what each leaves in DIR) is played with a stand-in for
// the commands ci starts (support/ci-stand-in.ts): what conformance does with --baseline and --fail-on new beyond
// that is cli-options.test.ts's.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { projectRoot, runCommand } from './run-node.ts';
import { type StandInCi, standInCi } from './support/ci-stand-in.ts';
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
async function night(more: Record<string, string> = {}) {
  const job = mkdtempSync(join(tmpdir(), 'zc-ci-night-'));
  const [summary, output] = [join(job, 'summary'), join(job, 'output')];
  writeFileSync(summary, '');
  writeFileSync(output, '');
  const launcher = join(projectRoot, 'bin/zones-conformance.mjs');
  const run = await runCommand(process.execPath, [launcher, 'ci', '--history', history], {
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

/** A night that judged the shop: its exit code and outputs, the verdict first in the summary, the HTML report built. */
function expectJudged(judged: Awaited<ReturnType<typeof night>>, verdict: string, code: number): void {
  expect(judged.run.code, judged.run.stdout + judged.run.stderr).toBe(code);
  expect(judged.outputs).toEqual({ verdict, 'exit-code': String(code), report: join('reports', 'conformance.html') });
  expect(/NON-CONFORMANT|CONFORMANT/.exec(judged.summary.split('\n')[0]!)?.[0]).toBe(verdict.toUpperCase());
  expect(existsSync(join(judged.job, 'reports', 'allure-report', 'index.html')), 'the HTML report was built').toBe(
    true,
  );
}

test('night 1, a correct shop: exit 0, verdict=conformant, the summary opens with the verdict, the HTML report is built, DIR keeps the night', async () => {
  front.upstream = correct.url;
  const first = await night();
  expectJudged(first, 'conformant', 0);
  expect(first.run.stdout).toContain('tonight is the first baseline');
  expect(nightsKept()).toBe(1);
});

test('night 2, the same address now making zones published: a new failure against night 1, exit 1, verdict=non-conformant, the summary names CREATE-02, DIR keeps the night', async () => {
  front.upstream = broken.url;
  const second = await night();
  expectJudged(second, 'non-conformant', 1);
  expect(second.summary).toContain('CREATE-02');
  expect(nightsKept()).toBe(2);
});

test('night 3 cannot run (a wrong token): exit 3, verdict=could-not-run, and DIR is left as it was', async () => {
  const baseline = readFileSync(join(history, 'conformance.json'), 'utf8');
  const third = await night({ ZONES_ACCESS_TOKEN: 'not_the_token_0123456789' });
  expect(third.run.code).toBe(3);
  expect(third.outputs).toMatchObject({ verdict: 'could-not-run', 'exit-code': '3' });
  expect(readFileSync(join(history, 'conformance.json'), 'utf8')).toBe(baseline);
  expect(nightsKept()).toBe(2);
});

test('a night stopped by Ctrl-C to the job: the run stops once, its zones are deleted, 130, verdict=interrupted, DIR keeps its baseline', async () => {
  const job = mkdtempSync(join(tmpdir(), 'zc-ci-stopped-'));
  const output = join(job, 'output');
  writeFileSync(output, '');
  front.upstream = correct.url;
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

describe('the ci logic night after night, its commands played by a stand-in', () => {
  let ci: StandInCi;
  // Copied once the tests run, not while they are collected: a filtered run that selects none copies nothing.
  beforeAll(() => {
    ci = standInCi();
  });
  const kept = () => readFileSync(join(ci.history, 'conformance-history.jsonl'), 'utf8').trim().split('\n').length;
  const keptBaseline = () => JSON.parse(readFileSync(join(ci.history, 'conformance.json'), 'utf8'));

  test('a first night that certifies the shop conformant passes: verdict=conformant, the summary opens with the verdict, the report is built, DIR keeps the night', async () => {
    const first = await ci.night({ code: 0, verdict: 'conformant' });
    expect(first.run.code, first.run.stdout + first.run.stderr).toBe(0);
    expect(first.calls.map((call) => call.args)).toEqual([['conformance'], ['report']]);
    expect(first.run.stdout).toContain('tonight is the first baseline');
    expect(first.outputs).toEqual({
      verdict: 'conformant',
      'exit-code': '0',
      report: join('reports', 'conformance.html'),
    });
    expect(first.summary.split('\n')[0]).toMatch(/CONFORMANT/);
    expect(kept()).toBe(1);
    expect(keptBaseline()).toEqual({ verdict: 'conformant', night: 'night 1' });
  });

  test('the next night certifies against last night with --fail-on new: a new failure exits 1 and becomes the baseline', async () => {
    const second = await ci.night({ code: 1, verdict: 'non-conformant' });
    expect(second.run.code).toBe(1);
    const [conformance] = second.calls;
    expect(conformance?.args).toEqual([
      'conformance',
      '--baseline',
      join(ci.history, 'conformance.json'),
      '--fail-on',
      'new',
    ]);
    expect(JSON.parse(conformance!.baseline!)).toEqual({ verdict: 'conformant', night: 'night 1' });
    expect(second.outputs).toMatchObject({ verdict: 'non-conformant', 'exit-code': '1' });
    expect(second.summary.split('\n')[0]).toMatch(/NON-CONFORMANT/);
    expect([kept(), keptBaseline().night]).toEqual([2, 'night 2']);
  });

  test('a known failure, which conformance passes under --fail-on new, passes: exit 0, verdict=non-conformant', async () => {
    const third = await ci.night({ code: 0, verdict: 'non-conformant' });
    expect(third.run.code).toBe(0);
    expect(JSON.parse(third.calls[0]!.baseline!).night).toBe('night 2');
    expect(third.outputs).toMatchObject({ verdict: 'non-conformant', 'exit-code': '0' });
    expect([kept(), keptBaseline().night]).toEqual([3, 'night 3']);
  });

  test('a night that cannot run builds no report, says so in the summary, and leaves DIR as it was', async () => {
    const fourth = await ci.night({ code: 3 });
    expect(fourth.run.code).toBe(3);
    expect(fourth.calls.map((call) => call.args[0])).toEqual(['conformance']);
    expect(fourth.outputs).toMatchObject({ verdict: 'could-not-run', 'exit-code': '3' });
    expect(fourth.summary).toBe('zones-conformance: could-not-run (exit 3); no summary.md was written.\n');
    expect([kept(), keptBaseline().night]).toEqual([3, 'night 3']);
  });

  test('an incomplete night passes with a warning, and with --fail-on-incomplete it exits 2; either way it is kept', async () => {
    const lenient = await ci.night({ code: 2, verdict: 'incomplete' });
    expect(lenient.run.code, lenient.run.stdout + lenient.run.stderr).toBe(0);
    expect(lenient.outputs).toMatchObject({ verdict: 'incomplete', 'exit-code': '2' });
    expect(lenient.run.stdout).toContain('incomplete: some MUST rule was not verified');
    const strict = await ci.night({ code: 2, verdict: 'incomplete' }, ['--fail-on-incomplete']);
    expect(strict.run.code).toBe(2);
    expect(strict.run.stdout).not.toContain('incomplete: some MUST rule was not verified');
    expect([kept(), keptBaseline().night]).toEqual([5, 'night 6']);
  });

  test('an interrupted night is swept, builds no report, and keeps the baseline: 130, verdict=interrupted', async () => {
    const stopped = await ci.night({ code: 130 });
    expect(stopped.run.code).toBe(130);
    expect(stopped.calls.map((call) => call.args)).toEqual([
      ['conformance', '--baseline', join(ci.history, 'conformance.json'), '--fail-on', 'new'],
      ['sweep', '--yes'],
    ]);
    expect(stopped.outputs).toMatchObject({ verdict: 'interrupted', 'exit-code': '130' });
    expect(keptBaseline().night).toBe('night 6');
  });

  test('a night whose run is killed outright (SIGKILL) is one ended, not judged: 137, verdict=interrupted, swept, the baseline kept', async () => {
    const killed = await ci.night({ killedBy: 'SIGKILL' });
    expect(killed.run.code).toBe(137);
    expect(killed.calls.map((call) => call.args[0])).toEqual(['conformance', 'sweep']);
    expect(killed.outputs).toMatchObject({ verdict: 'interrupted', 'exit-code': '137' });
    expect(keptBaseline().night).toBe('night 6');
  });
});
