// `zones-conformance ci --history DIR`: a nightly job's whole work in one command, for any CI. What travels from
// one night to the next is DIR alone (a CI cache): last night's certificate, the baseline, and the histories.
import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { basename, join } from 'node:path';
import { loadEnvironment } from '../helpers/config.ts';
import { EXIT } from '../helpers/exit-codes.ts';
import { inProject } from '../helpers/project-root.ts';
import { allureLocations } from '../helpers/report/allure-layout.ts';
import { PAGE_FILE } from '../helpers/report/certificate-page.ts';
import { HISTORY_FILE } from '../helpers/report/history.ts';
import { readStopSignals } from '../helpers/runner/stop-signals.ts';
import { settingDefault } from '../helpers/settings.ts';
import { leaveCannotRun, readCommandLine } from './command-options.ts';

const USAGE = [
  'Usage: zones-conformance ci --history DIR [--fail-on-incomplete]',
  '',
  "A nightly job's work in one command: restores last night's certificate and histories from DIR, certifies",
  '(with --fail-on new once DIR holds a baseline), sweeps after an interruption, builds the HTML report, writes',
  'the job summary ($GITHUB_STEP_SUMMARY when set) and the outputs verdict, exit-code and report ($GITHUB_OUTPUT',
  'when set), and keeps tonight in DIR. Keep DIR between nights (a CI cache). Settings as for conformance.',
  '',
  '  --history DIR         where the nights travel: created when missing',
  '  --fail-on-incomplete  exit 2 when some MUST rule is not verified (else the job passes, with a warning)',
  '',
  `Exit codes: ${EXIT.ok} pass (and incomplete without --fail-on-incomplete), ${EXIT.failed} a new MUST failure (any, on the first`,
  `night), ${EXIT.incomplete} incomplete with --fail-on-incomplete, ${EXIT.cannotRun} could not run, 130/143 interrupted, 137 killed.`,
].join('\n');

/** The files a night leaves for the next: the baseline when it judged the shop; the histories always. */
const BASELINE = 'conformance.json';
const HISTORIES = [HISTORY_FILE, basename(allureLocations('.').history)];
const launcher = inProject('bin/zones-conformance.mjs');
/** A command killed outright (SIGKILL, as an out-of-memory killer sends it): ended, not judged, like a stopped one. */
const KILLED = 128 + constants.signals.SIGKILL;

function copy(from: string, to: string): void {
  if (existsSync(from)) copyFileSync(from, to);
}

/**
 * A command of the suite in a process group of its own: a Ctrl-C to the job reaches it once, from here, never a second
 * late copy that would read as the second press. Resolves to the code it ended with, a signal as the shell shows it.
 */
function run(args: string[]): Promise<number> {
  // CI set: the report is never opened in a browser, even when a person runs the job's command at a desktop.
  const env = { ...process.env, CI: process.env.CI || 'true' };
  const child = spawn(process.execPath, [launcher, ...args], { stdio: 'inherit', detached: true, env });
  const onSignal = readStopSignals({ stop: (signal) => child.kill(signal), leave: (signal) => child.kill(signal) });
  process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
      // Any signal, a SIGKILL from an out-of-memory killer too, as 128 plus its number: the stop signals give 130 and 143.
      resolve(code ?? (signal ? 128 + constants.signals[signal] : EXIT.cannotRun));
    }),
  );
}

/** The night's verdict in one word, as the outputs say it: the certificate's, or what kept the run from giving one. */
function verdictOf(reportsDir: string, code: number): string {
  if (code === EXIT.SIGINT || code === EXIT.SIGTERM || code === KILLED) return 'interrupted';
  const path = join(reportsDir, BASELINE);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as { verdict: string }).verdict : 'could-not-run';
}

async function main(): Promise<void> {
  const args = readCommandLine(
    { history: { type: 'string' }, 'fail-on-incomplete': { type: 'boolean' } },
    USAGE,
    (problem) => leaveCannotRun(`zones-conformance ci: cannot run: ${problem}`),
  );
  if (!args) return;
  if (!args.history) leaveCannotRun('zones-conformance ci: cannot run: --history DIR is required (see --help)');
  const history = args.history;
  const reportsDir = loadEnvironment().ZONES_REPORTS_DIR?.trim() || settingDefault('ZONES_REPORTS_DIR');
  mkdirSync(history, { recursive: true });
  mkdirSync(reportsDir, { recursive: true });
  for (const name of HISTORIES) copy(join(history, name), join(reportsDir, name));
  const baseline = join(history, BASELINE);
  const compare = existsSync(baseline) ? ['--baseline', baseline, '--fail-on', 'new'] : [];
  if (compare.length === 0) console.log(`zones-conformance ci: no ${baseline} yet: tonight is the first baseline`);

  const code = await run(['conformance', ...compare]);
  const verdict = verdictOf(reportsDir, code);
  if (verdict === 'interrupted') await run(['sweep', '--yes']);
  if (code !== EXIT.cannotRun && verdict !== 'interrupted') await run(['report']);

  const summary = join(reportsDir, 'summary.md');
  const target = process.env.GITHUB_STEP_SUMMARY;
  if (target && existsSync(summary)) appendFileSync(target, readFileSync(summary));
  else if (target) appendFileSync(target, `zones-conformance: ${verdict} (exit ${code}); no summary.md was written.\n`);
  else console.log(`zones-conformance ci: the job summary is ${existsSync(summary) ? summary : '(none written)'}`);
  const page = join(reportsDir, PAGE_FILE);
  if (process.env.GITHUB_OUTPUT)
    appendFileSync(process.env.GITHUB_OUTPUT, `verdict=${verdict}\nexit-code=${code}\nreport=${page}\n`);

  // Tonight becomes tomorrow's baseline only when it judged the shop; the histories are kept whatever happened.
  if (code === EXIT.ok || code === EXIT.failed || code === EXIT.incomplete) copy(join(reportsDir, BASELINE), baseline);
  for (const name of HISTORIES) copy(join(reportsDir, name), join(history, name));
  const passesIncomplete = code === EXIT.incomplete && args['fail-on-incomplete'] !== true;
  if (passesIncomplete)
    console.log('zones-conformance ci: incomplete: some MUST rule was not verified (see the summary)');
  process.exitCode = passesIncomplete ? EXIT.ok : code;
}

await main();
