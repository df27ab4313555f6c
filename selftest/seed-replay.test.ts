// The replay command every report prints for a model-based seed runs as printed, through the real
// launcher, a negative seed included: node's parseArgs takes `--seed -1311814496` for two options
// ("argument is ambiguous"), and a printed command that is refused replays nothing.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { seedReplayCommand } from '../helpers/config.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { runEntry } from './run-node.ts';

const SEED = -1311814496;
const reportsDir = () => mkdtempSync(join(tmpdir(), 'zc-seed-'));

/** The options of a printed `npm run conformance -- ...` command, as npm hands them to the launcher. */
function optionsOf(command: string): string[] {
  const [, options] = command.split(' -- ');
  if (options === undefined) throw new Error(`not an npm run command with options: ${command}`);
  return options.split(' ');
}

test('the replay command printed for a negative seed is accepted, and the run it starts has that seed', async () => {
  // One rule, and a small budget: the command, not the sequences, is under test.
  const printed = seedReplayCommand(SEED, 'CREATE-02');
  expect(printed).toBe(`npm run conformance -- --seed=${SEED} --rule CREATE-02`);
  const dir = reportsDir();
  const run = await runEntry('bin/conformance.ts', optionsOf(printed), {
    ZONES_REPORTS_DIR: dir,
    ZONES_MODEL_RUNS: '2',
    ZONES_MODEL_STEPS: '10',
    ZONES_MODEL_MAX_REQUESTS: '40',
  });
  expect(run.stderr).not.toMatch(/ambiguous|cannot run/);
  // A partial run is at best incomplete: exit 2, with CREATE-02 passed.
  expect(run.code, run.stderr).toBe(2);
  const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;
  expect(report.rules.find((rule) => rule.id === 'CREATE-02')?.status).toBe('passed');
  // The report prints the same command back: replaying the replay is the same run.
  expect(report.model).toEqual({ seed: SEED, drawn: false, replay: printed });
  expect(run.stdout).toContain(`model-based seed ${SEED} (set by ZONES_MODEL_SEED or --seed); replay: ${printed}`);
  expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain(`| Model-based seed | ${SEED} `);
});

test('the form with a space is the one parseArgs refuses for a negative seed: why the reports print =', async () => {
  const run = await runEntry('bin/conformance.ts', ['--seed', String(SEED), '--rule', 'CREATE-02'], {
    ZONES_REPORTS_DIR: reportsDir(),
  });
  expect(run.code).toBe(3);
  expect(run.stderr).toMatch(/argument is ambiguous/);
});
