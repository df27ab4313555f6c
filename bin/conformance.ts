// `npm run conformance`: certify the target the settings name, or the embedded reference if none, as USAGE says.
import { loadEnvironment, readTargetConfig } from '../helpers/config.ts';
import { Secrets, shortTokenWarning } from '../helpers/evidence/secrets.ts';
import { CannotRunError, EXIT, exitCodeForSignal } from '../helpers/exit-codes.ts';
import { suitePackage } from '../helpers/project-root.ts';
import { allureLocations } from '../helpers/report/allure-layout.ts';
import { outageLine } from '../helpers/report/conformance-report.ts';
import { outliveOutputReaders, Progress, printSummary } from '../helpers/report/console-output.ts';
import {
  buildCouldNotRun,
  factsFromConfig,
  factsFromRawSettings,
  type LauncherFacts,
  writeCouldNotRun,
} from '../helpers/report/could-not-run.ts';
import { readBaseline, refuseOtherTarget } from '../helpers/report/history.ts';
import { setAsideReports } from '../helpers/report/previous-reports.ts';
import { writeReports } from '../helpers/report/write-reports.ts';
import { rules } from '../helpers/rules.ts';
import { families, selectRules, testNamePatternFor } from '../helpers/runner/rule-selection.ts';
import { readStopSignals } from '../helpers/runner/stop-signals.ts';
import { SETTINGS } from '../helpers/settings.ts';
import { leaveCannotRun, readCommandLine } from './command-options.ts';

const startedAt = new Date();
/** Kept up to date as the launcher learns more, so a run that has to give up still reports where it should. */
let known: LauncherFacts = factsFromRawSettings(process.env);

const USAGE = [
  'Usage: npm run conformance [-- [--rule IDS] [--seed=N] [--baseline PATH [--fail-on new]] [--quiet] | --list | --version | --help]',
  '',
  'Certifies a Zone Management Service (API 2026-07) against its specification.',
  'Settings come from the environment, then from a .env file (see .env.example):',
  '',
  ...SETTINGS.map((doc) => `  ${doc.name}${doc.default ? ` (default: ${doc.default})` : ''}\n      ${doc.help}`),
  '',
  'Options:',
  '  --rule IDS       check only these rules: rule ids and families, comma-separated, in any case,',
  `                   e.g. AUTH,CREATE-02. Families: ${families().join(', ')}. The rest are reported`,
  '                   as not selected, and the verdict of a partial run is at best incomplete.',
  '  --list           print the rules (id, level, title, source) and exit; needs no settings',
  '  --quiet          print only the verdict (and the comparison with --baseline), any zone left behind',
  '                   with the command that deletes it, and errors',
  '  --baseline PATH  compare with an earlier conformance.json: new failures, fixed, still failing,',
  '                   newly not verified, newly verified, in the console, conformance.json (comparison) and .md',
  '  --fail-on new    with --baseline: exit 1 only for a MUST rule that fails now and did not in the',
  `                   baseline; else ${EXIT.incomplete} if a MUST rule is not verified, else 0. The verdict is unchanged`,
  "  --seed=N         the model-based suite's seed, as the reports name it: replays its sequences (ZONES_MODEL_SEED).",
  '                   Without it, each run draws a new one. Write it with =, so that a negative seed is read as one',
  "  --record-exchanges FILE    every test's exchanges as data, a line a test, in FILE: npm run drift compares two",
  '  --target-variables PREFIX  where the commands the reports print read the target from: ZONES_MOCK_ for',
  "                   ZONES_MOCK_BASE_URL and ZONES_MOCK_ACCESS_TOKEN, as in drift's mock run. Default ZONES_",
  "  --version        print the package's name and version and exit",
  '  --help           this text',
  '',
  `Exit codes: ${EXIT.ok} conformant, ${EXIT.failed} a MUST rule failed, ${EXIT.incomplete} some MUST rule not verified, ${EXIT.cannotRun} could not run`,
  '(bad settings or options, an unknown rule, an unreadable baseline, a shop in maintenance) or could not complete',
  '(the shop stopped answering for longer than ZONES_OUTAGE_BUDGET_MS), 130/143 stopped by SIGINT/SIGTERM.',
  'Every run writes conformance.html (the certificate page), conformance.json, conformance.md, summary.md,',
  'junit.xml, badge.svg and allure-results/ to ZONES_REPORTS_DIR, and there any body over 8 KiB whole, in bodies/.',
  'A run of every rule that judged the shop (not stopped by a signal, not cut short by an outage) adds a line',
  'to ZONES_REPORTS_DIR/conformance-history.jsonl, the nights the page shows: keep that file between runs.',
].join('\n');

function catalogue(): string {
  const width = Math.max(...rules.map((rule) => rule.id.length)) + 2;
  return rules
    .map((rule) => `${rule.id.padEnd(width)}${rule.level.toUpperCase().padEnd(8)}${rule.title}  [${rule.source}]`)
    .join('\n');
}

function cannotRun(message: string): never {
  const secrets = new Secrets(known);
  const reason = secrets.mask(message);
  const write = () => writeCouldNotRun(buildCouldNotRun(reason, startedAt, known.baseUrl), known);
  leaveCannotRun(`zones-conformance: cannot run: ${reason}`, { write, dir: known.reportsDir, secrets });
}

async function main(): Promise<void> {
  outliveOutputReaders();
  const env = loadEnvironment();
  known = factsFromRawSettings(env);
  const args = readCommandLine(
    {
      list: { type: 'boolean' },
      version: { type: 'boolean' },
      quiet: { type: 'boolean', short: 'q' },
      rule: { type: 'string' },
      seed: { type: 'string' },
      baseline: { type: 'string' },
      'fail-on': { type: 'string' },
      'record-exchanges': { type: 'string' },
      'target-variables': { type: 'string' },
    },
    USAGE,
    cannotRun,
  );
  if (!args) return;
  if (args.list) return console.log(catalogue());
  if (args.version) {
    const { name, version } = suitePackage();
    return console.log(`${name} ${version}`);
  }
  const quiet = args.quiet === true;
  // What refuses an option or a setting throws: main's catch says it as "cannot run", with the reports.
  const selected = args.rule === undefined ? undefined : selectRules(args.rule);
  if (args['fail-on'] !== undefined && args['fail-on'] !== 'new')
    throw new CannotRunError(`--fail-on takes only "new", not "${args['fail-on']}" (see --help)`);
  if (args['fail-on'] !== undefined && args.baseline === undefined)
    throw new CannotRunError('--fail-on new needs --baseline PATH, the conformance.json to compare with');
  const baseline = args.baseline === undefined ? undefined : readBaseline(args.baseline);

  // The option is the setting spelled on the command line, validated with the other settings.
  if (args.seed !== undefined) env.ZONES_MODEL_SEED = args.seed;
  let config = readTargetConfig(env);
  known = factsFromConfig(config);
  // Checked before a request, once the target is known: the embedded reference's address is not yet.
  if (baseline) refuseOtherTarget(baseline, config);
  setAsideReports(config.reportsDir);
  // A retired setting is said, once, and the run goes on: never a reason to stop a nightly job.
  for (const notice of config.notices) console.error(`zones-conformance: ${notice}`);
  // Said once, here: the masker then leaves such a token readable inside other text, and says nothing.
  const placeholder = shortTokenWarning(config.token);
  if (placeholder) console.error(`zones-conformance: ${placeholder}`);

  // Loaded only now: a run refused on its settings or options never pays for them (about 0.15 s of CPU).
  const [{ certify }, { insecureWarning, routeDescription }] = await Promise.all([
    import('../helpers/runner/certify.ts'),
    import('../helpers/connection/transport.ts'),
  ]);
  const embedded = config.embedded
    ? await (await import('./reference-settings.ts')).startEmbeddedTarget(config)
    : undefined;
  if (embedded) {
    config = embedded.config;
    known = factsFromConfig(config);
  }
  const secrets = new Secrets(config);
  if (!quiet)
    console.log(
      secrets.mask(
        `zones-conformance: certifying ${config.baseUrl}${embedded ? ' (embedded reference: no ZONES_BASE_URL set)' : routeDescription(config)}`,
      ),
    );
  const warning = insecureWarning(config);
  if (warning) console.error(`zones-conformance: ${warning}`);

  let stopRun: (() => Promise<void>) | undefined;
  let interrupted: NodeJS.Signals | undefined;
  const onSignal = readStopSignals({
    stop: (signal) => {
      interrupted = signal;
      console.error(`\nzones-conformance: ${signal}: stopping the tests, then deleting this run's zones`);
      void stopRun?.();
    },
    // A second signal is the way out of a hanging clean-up: leave now, and say what that means.
    leave: (signal) => {
      console.error(
        `zones-conformance: ${signal} again: leaving without finishing clean-up; run npm run sweep to remove this run's zones`,
      );
      process.exit(exitCodeForSignal(signal));
    },
  });
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    // A test of a rule left out is no news while the run goes; the closing table says "not selected".
    const progress = new Progress(quiet, (ruleId) => !selected || (ruleId !== undefined && selected.includes(ruleId)));
    const report = await certify(
      { name: 'target', config },
      {
        testNamePattern: selected && testNamePatternFor(selected),
        recordExchanges: args['record-exchanges'],
        targetVariables: args['target-variables'],
        reporters: [['allure-vitest/reporter', { resultsDir: allureLocations(config.reportsDir).results }]],
        onOutcome: (_project, outcome) => progress.outcome(outcome),
        onWaiting: (line) => console.error(secrets.mask(line)),
        onStarted: (stop) => {
          stopRun = stop;
          // A signal during preflight or start-up: stop before the first test.
          if (interrupted) void stop();
        },
        // The certificate is built once, with all of it, and names the process's exit code.
        launcherFacts: () => ({
          stoppedBy: interrupted,
          selection: args.rule !== undefined && selected ? { rule: args.rule, rules: selected } : undefined,
          baseline: baseline && { baseline, failOn: args['fail-on'] === 'new' ? 'new' : null },
        }),
      },
    );
    progress.finish();
    const warn = (line: string) => console.error(`zones-conformance: ${line}`);
    const files = writeReports(report, { reportsDir: config.reportsDir, secrets, warn, baseline: baseline?.night });
    printSummary(report, files, secrets, quiet);
    // On stderr, --quiet or not: a night that could not complete is no verdict, and a person should know why.
    if (report.outage)
      console.error(secrets.mask(`zones-conformance: could not complete: ${outageLine(report.outage)}`));
    process.exitCode = report.exitCode;
  } catch (error) {
    if (error instanceof CannotRunError) cannotRun(error.message);
    throw error;
  } finally {
    await embedded?.reference.close();
  }
}

main().catch((error: unknown) => cannotRun(error instanceof Error ? error.message : String(error)));
