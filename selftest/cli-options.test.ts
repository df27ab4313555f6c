// The options of `npm run conformance` a nightly job and a person at a terminal lean on: --rule by
// rule ids and families, --list, --quiet, and night over night with --baseline and --fail-on new,
// played against the reference with a real fault and baselines edited from a real certificate; and
// drift's --record-exchanges and --target-variables, which its two runs are started with. One whole
// night against the faulty reference, run once with every option a nightly job and drift give it,
// proves their wiring; the other nights are that night's real certificate judged again in-process
// with other options and baselines (support/cli-nights.ts), as the launcher judges it.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { readTargetConfig, type TargetConfig } from '../helpers/config.ts';
import type { TestExchanges } from '../helpers/evidence/exchange-detail.ts';
import { isModelTestTitle } from '../helpers/harness/model/title.ts';
import type { Comparison, ConformanceReport } from '../helpers/report/certificate.ts';
import { buildReport } from '../helpers/report/conformance-report.ts';
import { readBaseline } from '../helpers/report/history.ts';
import { rules } from '../helpers/rules.ts';
import { selectRules } from '../helpers/runner/rule-selection.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { type ChildRun, runEntry } from './run-node.ts';
import { judgeAgain } from './support/cli-nights.ts';
import { cannotRunReason } from './support/net-in-process.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';

const TOKEN = 'shpat_selftest_options_0123456789';
const conformance = (env: Record<string, string>, args: string[] = []) => runEntry('bin/conformance.ts', args, env);
const reportsDir = () => mkdtempSync(join(tmpdir(), 'zc-options-'));
const readReport = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport & { comparison: Comparison };
const NOT_SELECTED = /^not selected \(--rule /;

/** The message a refusal throws: what the launcher prints after "cannot run: ". */
let embeddedRun: Promise<{ dir: string; run: ChildRun }> | undefined;
/**
 * The embedded reference, `--rule AUTH,CREATE-02,DELETE-02` and no other option, with a retired setting
 * a nightly job may still set: four tests read it, whichever comes first starts it.
 */
function embeddedPartialRun() {
  embeddedRun ??= (async () => {
    const dir = reportsDir();
    const env = { ZONES_REPORTS_DIR: dir, ZONES_CONCURRENCY: '4' };
    return { dir, run: await conformance(env, ['--rule', 'AUTH,CREATE-02,DELETE-02']) };
  })();
  return embeddedRun;
}

/** The rules whose tests ran: any test that was not left out by --rule. */
function rulesRun(report: ConformanceReport): string[] {
  return report.rules
    .filter((rule) => rule.tests.some((test) => !NOT_SELECTED.test(test.reason ?? '')))
    .map((rule) => rule.id);
}

describe('--rule, --list and --quiet', () => {
  test('--list prints every rule with its level and title, and needs no settings (bad ones are not read)', async () => {
    const run = await conformance({ ZONES_STATUSES: 'live', ZONES_BASE_URL: '' }, ['--list']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(rules.length);
    for (const [index, rule] of rules.entries()) {
      expect(lines[index]).toMatch(new RegExp(`^${rule.id} +${rule.level.toUpperCase()} +`));
      expect(lines[index]).toContain(rule.title);
    }
  });

  test('an unknown rule or family is exit 3 with one line naming it and the families', async () => {
    const dir = reportsDir();
    const run = await conformance({ ZONES_REPORTS_DIR: dir }, ['--rule', 'AUTH,NOPE,CREATE-9']);
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/--rule does not know NOPE, CREATE-9: .*AUTH, CREATE, LIST, UPDATE, DELETE, PATH/);
    expect(run.stdout).toBe('');
    expect(readFileSync(join(dir, 'badge.svg'), 'utf8')).toContain('conformance: could not run');
  });

  test('--rule AUTH,CREATE-02,DELETE-02 runs exactly those rules; the rest are "not selected", never NOT VERIFIED', async () => {
    const { dir, run } = await embeddedPartialRun();
    const report = readReport(dir);
    const wanted = ['AUTH-01', 'AUTH-02', 'AUTH-03', 'AUTH-04', 'AUTH-05', 'AUTH-06', 'CREATE-02', 'DELETE-02'];
    expect(rulesRun(report)).toEqual(wanted);
    for (const rule of report.rules.filter((r) => wanted.includes(r.id))) expect(rule.status, rule.id).toBe('passed');
    expect(report.selection).toEqual({ rule: 'AUTH,CREATE-02,DELETE-02', rules: wanted });
    // A partial run cannot certify: incomplete, exit 2, and it says why.
    expect(report.verdict).toBe('incomplete');
    expect(run.code).toBe(2);
    expect(run.stdout).not.toContain('NOT VERIFIED');
    expect(run.stdout).toMatch(/^ {2}CREATE-01 +MUST +not selected +-$/m);
    // Its example test and its model-based one.
    expect(run.stdout).toMatch(/^ {2}CREATE-02 +MUST +passed +2\/2 passed$/m);
    expect(run.stdout).toMatch(/^ {2}-- auth: 15 test\(s\) done: 15 pass$/m);
    expect(run.stdout, 'no line for a test left out').not.toMatch(/ {2}n\/v +CREATE-01/);
    expect(run.stdout).toMatch(
      /MUST 8 passed, 0 failed, 0 not verified, 10 not selected \(--rule AUTH,CREATE-02,DELETE-02\)/,
    );
    // The closing table: one line per rule.
    for (const rule of rules)
      expect(run.stdout).toMatch(new RegExp(`^ {2}${rule.id} +${rule.level.toUpperCase()} `, 'm'));
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toMatch(/\| CREATE-01 \| MUST \| not selected \|/);
  });

  test('a family in lower case is the family', () => {
    // Read by the function the launcher reads --rule with; the run's wiring of it is the test above's.
    expect(selectRules('create')).toEqual(['CREATE-01', 'CREATE-02', 'CREATE-03']);
    expect(selectRules('auth,create-02')).toEqual(selectRules('AUTH,CREATE-02'));
  });
});

// Moved from retired-settings.test.ts, whose run this was: the setting no longer read is said and the run goes on.
test('a run that sets ZONES_CONCURRENCY says so once, on stderr, and certifies as usual (a partial run: incomplete)', async () => {
  const { run } = await embeddedPartialRun();
  expect(run.code).toBe(2);
  expect(run.stderr.split('\n').filter((line) => line.includes('ZONES_CONCURRENCY'))).toEqual([
    expect.stringMatching(/^zones-conformance: ZONES_CONCURRENCY no longer has an effect/),
  ]);
  expect(run.stdout).toMatch(/verdict: INCOMPLETE {2}MUST 8 passed, 0 failed/);
});

// Moved from embedded-settings.test.ts, whose run this was: its reports name who books a zone.
test("the embedded run names the reference's booking route as what DELETE-02 books with, never a ZONES_BOOKING_HOOK the user set", async () => {
  const { dir, run } = await embeddedPartialRun();
  expect(run.code, run.stderr).toBe(2);
  const report = readReport(dir);
  const route = "(the embedded reference's booking route)";
  expect(report.target.settings).toMatchObject({ bookingHook: route, bookingCleanupHook: route });
  const delete02 = report.rules.find((rule) => rule.id === 'DELETE-02')!;
  // Its example test; the model-based one, which this run has too, names what it checked with nowhere.
  const example = delete02.tests.filter((test) => !isModelTestTitle(test.title));
  expect(example.map((test) => test.checkedWith)).toEqual([
    ["a zone booked through the embedded reference's booking route"],
  ]);
  const markdown = readFileSync(join(dir, 'conformance.md'), 'utf8');
  expect(markdown).toContain(`"bookingHook": "${route}"`);
  expect(markdown).not.toContain('ZONES_BOOKING_HOOK');
  // The coverage samples are JSON in the settings, not JSON text quoted again.
  expect(markdown).not.toContain('\\"');
});

describe('night over night: --baseline and --fail-on new', () => {
  let reference: RunningReference;
  let settings: Record<string, string>;
  let config: TargetConfig;
  /** Last night's certificate, with the failures tonight has: UPDATE-01 and two robustness probes. */
  let lastNightPath: string;
  /** Tonight's run against a shop whose updates ignore the name (UPDATE-01 fails), with --baseline last night, --fail-on new and --quiet, and drift's two options. */
  let run: ChildRun;
  let runDir: string;
  let exchangesFile: string;
  /** Tonight's certificate. */
  let tonight: ConformanceReport;
  let tonightPath: string;

  /** A baseline edited from tonight's real certificate: the rules given take the statuses given. */
  function baselineWith(statuses: Record<string, string>, edit?: (baseline: ConformanceReport) => void): string {
    const edited = structuredClone(tonight);
    for (const rule of edited.rules) rule.status = (statuses[rule.id] ?? rule.status) as typeof rule.status;
    edit?.(edited);
    const path = join(reportsDir(), 'conformance.json');
    writeFileSync(path, JSON.stringify(edited));
    return path;
  }

  /** Tonight judged again with other options, by the launcher's own functions (support/cli-nights.ts). */
  const judged = (options: Parameters<typeof judgeAgain>[2]) => judgeAgain(tonight, config, options);

  beforeAll(async () => {
    reference = await startReference({ token: TOKEN, fault: 'update-ignores-name' });
    settings = {
      ...settingsForStyle(reference.style, reference.url, TOKEN),
      ...bookingHooksForReference(),
      // A comparison is of rule statuses, and the model-based suite's UPDATE-01 test would fail (and
      // shrink its sequence) beside the example one on every night, changing none of them.
      ZONES_MODEL_RUNS: '0',
    };
    config = readTargetConfig(settings);
    // Last night, as the certificate builder writes one: the same three rules open as tonight.
    const open = ['UPDATE-01', 'ROBUST-06', 'ROBUST-07'];
    const outcomes = rules.map((rule) =>
      sampleOutcome(`${rule.id} last night`, open.includes(rule.id) ? 'failed' : 'passed'),
    );
    lastNightPath = join(reportsDir(), 'conformance.json');
    writeFileSync(lastNightPath, JSON.stringify(buildReport(sampleRunFacts(config, outcomes))));
    runDir = reportsDir();
    exchangesFile = join(reportsDir(), 'exchanges.jsonl');
    // One whole run for every option the night's tests and drift's lean on: each is wired in bin/conformance.ts.
    run = await conformance({ ...settings, ZONES_REPORTS_DIR: runDir }, [
      '--baseline',
      lastNightPath,
      '--fail-on',
      'new',
      '--quiet',
      '--record-exchanges',
      exchangesFile,
      '--target-variables',
      'ZONES_MOCK_',
    ]);
    tonightPath = join(reportsDir(), 'conformance.json');
    copyFileSync(join(runDir, 'conformance.json'), tonightPath);
    tonight = readReport(runDir);
    // The names it keeps also miss two robustness probes: MAY warnings, there every night.
    expect(tonight.rules.filter((rule) => rule.status !== 'passed').map((rule) => `${rule.id} ${rule.status}`)).toEqual(
      ['UPDATE-01 failed', 'ROBUST-06 warning', 'ROBUST-07 warning'],
    );
  });
  afterAll(() => reference.close());

  test('the same failure as last night is still failing: --fail-on new exits 0, the verdict stays non-conformant', () => {
    expect(run.code, run.stderr).toBe(0);
    const report = readReport(runDir);
    expect(report.comparison.stillFailing.map((rule) => rule.id)).toEqual(['UPDATE-01', 'ROBUST-06', 'ROBUST-07']);
    expect(report.comparison.newFailures).toEqual([]);
    expect(report.comparison.baseline.path).toBe(lastNightPath);
    // One exit code for the run, the process's, in every output; the verdict's own is said beside it.
    expect(report).toMatchObject({ verdict: 'non-conformant', exitCode: 0, comparison: { exitCode: 0 } });
    const why = "0 by --fail-on new (new MUST failures only; the verdict's own is 1)";
    expect(readFileSync(join(runDir, 'conformance.md'), 'utf8')).toMatch(
      /^# Conformance certificate: NON-CONFORMANT[\s\S]*Exit code 0 by --fail-on new \(new MUST failures only; the verdict's own is 1\)/,
    );
    expect(readFileSync(join(runDir, 'conformance.md'), 'utf8')).toContain(
      `| Verdict | **non-conformant** (exit code ${why}) |`,
    );
    expect(readFileSync(join(runDir, 'conformance.html'), 'utf8')).toContain(
      `Exit code ${why.replaceAll("'", '&#39;')}.`,
    );
    expect(readFileSync(join(runDir, 'summary.md'), 'utf8')).toContain(`**non-conformant** (exit code ${why})`);
    // --quiet: the verdict and the comparison, nothing of the tests nor the "certifying" line.
    expect(run.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^verdict: NON-CONFORMANT /),
      'since the baseline: new failures none; fixed none; still failing UPDATE-01 (MUST), ROBUST-06 (MAY), ROBUST-07 (MAY); newly not verified none; newly verified none',
    ]);
  });

  test("tonight judged again with its own options judges as the launcher did: the other nights' judgement is the launcher's", () => {
    // cli-nights.ts turns the certificate's tests back into the collector's outcomes; were it to judge a
    // rule otherwise than the launcher, every night judged again below would be a night no run gives.
    const again = judged({ baseline: lastNightPath, failOn: 'new' }).report;
    const statuses = (report: ConformanceReport) => report.rules.map((rule) => [rule.id, rule.status, rule.reason]);
    expect(statuses(again)).toEqual(statuses(tonight));
    expect([again.verdict, again.exitCode]).toEqual([tonight.verdict, tonight.exitCode]);
  });

  test('a rule that passed last night and fails tonight is new; one that failed and passes is fixed; exit 1', () => {
    const baseline = baselineWith({
      'UPDATE-01': 'passed',
      'CREATE-01': 'failed',
      'PROFILE-01': 'warning',
      'UPDATE-02': 'not-verified',
    });
    // The rules whose status changed or stayed open; UPDATE-02, not verified then and passed now, is
    // newly verified; UPDATE-03 and 04 passed both nights and must be in no list. A new failure is
    // exit 1 whatever was left out.
    const { report, dir, printed } = judged({
      rule: 'UPDATE,CREATE-01,PROFILE-01,ROBUST-06,ROBUST-07',
      baseline,
      failOn: 'new',
    });
    const ids = (list: { id: string }[]) => list.map((rule) => rule.id);
    expect(ids(report.comparison!.newFailures)).toEqual(['UPDATE-01']);
    expect(ids(report.comparison!.fixed)).toEqual(['CREATE-01', 'PROFILE-01']);
    expect(ids(report.comparison!.stillFailing)).toEqual(['ROBUST-06', 'ROBUST-07']);
    expect(report.comparison!.newlyNotVerified).toEqual([]);
    expect(ids(report.comparison!.newlyVerified)).toEqual(['UPDATE-02']);
    expect(report.comparison).toMatchObject({ failOn: 'new', exitCode: 1, baseline: { path: baseline } });
    expect(report).toMatchObject({ verdict: 'non-conformant', exitCode: 1 });
    const stdout = printed.join('\n');
    expect(stdout).toMatch(/^ {2}new failures +UPDATE-01 \(MUST\)$/m);
    expect(stdout).toMatch(/^ {2}fixed +CREATE-01 \(MUST\), PROFILE-01 \(SHOULD\)$/m);
    expect(stdout).toMatch(/^ {2}newly verified +UPDATE-02 \(MUST\)$/m);
    const md = readFileSync(join(dir, 'conformance.md'), 'utf8');
    expect(md).toContain('## Since the baseline');
    expect(md).toContain('| new failures | UPDATE-01 (MUST) |');
    expect(md).toContain('| still failing | ROBUST-06 (MAY), ROBUST-07 (MAY) |');
    expect(md).toContain('| newly verified | UPDATE-02 (MUST) |');
    expect(readFileSync(join(dir, 'badge.svg'), 'utf8')).toContain('conformance: non-conformant');
  });

  test('without --fail-on the comparison is reported and the exit code is the verdict’s', () => {
    // UPDATE-01 alone, still failing: --fail-on new would exit 2 for the MUST rules left out, the verdict 1.
    const { report } = judged({ rule: 'UPDATE-01', baseline: tonightPath });
    expect(report).toMatchObject({ exitCode: 1, comparison: { failOn: null, exitCode: 1 } });
    expect(judged({ rule: 'UPDATE-01', baseline: tonightPath, failOn: 'new' }).report.exitCode).toBe(2);
  });

  test('--quiet after a partial run without a baseline prints the verdict line alone', () => {
    const { printed } = judged({ rule: 'create', quiet: true });
    expect(printed).toEqual([expect.stringMatching(/^verdict: INCOMPLETE {2}MUST 3 passed, /)]);
  });

  test('a rule that passed last night and is not verified tonight (DELETE-02 with no booking hook) is newly not verified: exit 2', () => {
    // No booking hook tonight: DELETE-02 cannot be checked. The rules left out are compared with nothing.
    const { report } = judged({
      rule: 'DELETE-02',
      baseline: tonightPath,
      failOn: 'new',
      edit: (outcome) =>
        outcome.ruleId === 'DELETE-02'
          ? { ...outcome, state: 'not-verified', reason: 'no ZONES_BOOKING_HOOK to book a zone with' }
          : outcome,
    });
    const comparison = report.comparison!;
    expect(comparison.newlyNotVerified.map((rule) => rule.id)).toEqual(['DELETE-02']);
    expect(comparison.stillFailing, 'UPDATE-01 was not selected').toEqual([]);
    expect(comparison.fixed).toEqual([]);
    expect(report.exitCode).toBe(2);
  });

  test('a baseline of another target or another API version is refused: exit 3, one line naming both', async () => {
    const otherShop = baselineWith({}, (baseline) => {
      baseline.target.baseUrl = 'https://other-shop.example';
    });
    const otherVersion = baselineWith({}, (baseline) => {
      baseline.target.settings.apiVersion = '2025-10';
    });
    // The same target spelled with a trailing slash is the same target: compared, not refused.
    const sameShop = baselineWith({}, (baseline) => {
      baseline.target.baseUrl = `${reference.url}/`;
    });
    // The launcher's refusal, once: exit 3, one line, its could-not-run report.
    const dir = reportsDir();
    const refused = await conformance({ ...settings, ZONES_REPORTS_DIR: dir }, ['--baseline', otherShop]);
    expect(refused.code, refused.stderr).toBe(3);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(
      `--baseline ${otherShop}: certified another target, https://other-shop.example, not ${reference.url}`,
    );
    expect(readReport(dir)).toMatchObject({ verdict: 'could-not-run' });
    const version = `certified API version 2025-10, not ${tonight.target.settings.apiVersion} (ZONES_API_VERSION)`;
    expect(() => judged({ baseline: otherVersion })).toThrow(`--baseline ${otherVersion}: ${version}`);
    const same = judged({ rule: 'UPDATE-01', baseline: sameShop });
    expect(same.report.exitCode).toBe(1);
    expect(same.report.comparison!.stillFailing.map((rule) => rule.id)).toEqual(['UPDATE-01']);
  });

  test('a baseline that is missing, not JSON, not a certificate, or of a run that could not run: exit 3 naming it', async () => {
    const dir = reportsDir();
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, 'night-1');
    const other = join(dir, 'other.json');
    writeFileSync(other, '{"name":"zones-conformance"}');
    const couldNotRun = join(dir, 'could-not-run.json');
    writeFileSync(couldNotRun, JSON.stringify({ suite: 'zones-conformance', verdict: 'could-not-run', exitCode: 3 }));
    const missing = join(dir, 'missing.json');
    // Read before the settings are: the launcher's refusal, once.
    const run = await conformance({ ...settings, ZONES_REPORTS_DIR: reportsDir() }, ['--baseline', missing]);
    expect(run.code).toBe(3);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`--baseline ${missing}: `);
    expect(run.stderr).toMatch(/no such file/);
    for (const [path, why] of [
      [missing, /no such file/],
      [notJson, /cannot be read as JSON/],
      [other, /is not a conformance\.json/],
      [couldNotRun, /could not run/],
    ] as const) {
      const refusal = cannotRunReason(() => readBaseline(path));
      expect(refusal, path).toContain(`--baseline ${path}: `);
      expect(refusal).toMatch(why);
    }
    const alone = await conformance({ ...settings, ZONES_REPORTS_DIR: reportsDir() }, ['--fail-on', 'new']);
    expect(alone.code).toBe(3);
    expect(alone.stderr).toMatch(/--fail-on new needs --baseline/);
  });

  test('a baseline that could not complete is refused, exit 3 naming it, also as the certificate kept in previous/', async () => {
    // The shop went away partway: the rules it did not reach would read as fixed or newly not verified.
    const couldNotComplete = baselineWith({}, (baseline) => {
      baseline.verdict = 'could-not-complete';
    });
    const refusal = (path: string) =>
      `--baseline ${path}: is the report of a run that could not complete: the shop stopped answering partway, so it judged only part of the shop. Compare with an earlier night's conformance.json`;
    // As a night job finds it: that night's reports, set aside to previous/ by the run after it.
    const dir = reportsDir();
    copyFileSync(couldNotComplete, join(dir, 'conformance.json'));
    const previous = join(dir, 'previous', 'conformance.json');
    const setAside = await conformance({ ...settings, ZONES_REPORTS_DIR: dir }, ['--fail-on', 'all']);
    expect(setAside.code).toBe(3);
    expect(readReport(join(dir, 'previous')).verdict).toBe('could-not-complete');
    for (const path of [couldNotComplete, previous])
      expect(
        cannotRunReason(() => readBaseline(path)),
        path,
      ).toBe(refusal(path));
  });

  test("drift's options: a run given both writes each test's exchanges to the file, and every command it prints reads the mock's names", () => {
    const tests = readFileSync(exchangesFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as TestExchanges);
    const sent = tests.filter((t) => t.ruleId === 'UPDATE-01').flatMap((t) => t.exchanges);
    const withToken = sent.filter((exchange) => exchange.auth === 'valid');
    expect(withToken.length, 'UPDATE-01 sent requests with the token').toBeGreaterThan(0);
    for (const exchange of withToken) expect(exchange.curl).toContain('"$ZONES_MOCK_ACCESS_TOKEN"');
    expect(sent.some((exchange) => exchange.status !== undefined && exchange.answer !== undefined)).toBe(true);
    // The reports written in the launcher say so, from the certificate, and the worker's Allure attachment too.
    for (const name of ['conformance.md', 'junit.xml', 'conformance.html'])
      expect(readFileSync(join(runDir, name), 'utf8'), name).toContain(
        'read the credential from ZONES_MOCK_ACCESS_TOKEN:',
      );
    const results = join(runDir, 'allure-results');
    const attachments = readdirSync(results).map((name) => readFileSync(join(results, name), 'utf8'));
    expect(attachments.some((text) => text.startsWith('# Set ZONES_MOCK_ACCESS_TOKEN first'))).toBe(true);
    expect(tonight.target.variables).toBe('ZONES_MOCK_');
  });

  test("drift's options: without them a run records nothing and its commands read ZONES_ACCESS_TOKEN", async () => {
    // The embedded run of --rule was given neither: it wrote no exchanges.
    const embedded = await embeddedPartialRun();
    expect(readdirSync(embedded.dir).filter((name) => name.endsWith('.jsonl'))).toEqual([]);
    expect(readReport(embedded.dir).target.variables).toBeUndefined();
    // Tonight's failure, its certificate built without --target-variables.
    const { dir } = judged({ rule: 'UPDATE-01' });
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain('read the credential from ZONES_ACCESS_TOKEN:');
  });

  test("drift's options: a prefix that is not the start of a plain shell name is exit 3, naming the option", async () => {
    const refused = await conformance({ ...settings, ZONES_REPORTS_DIR: reportsDir() }, [
      '--target-variables',
      'ZONES_$(id)_',
    ]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('--target-variables takes a prefix like ZONES_MOCK_');
    expect(refused.stderr).toContain('not "ZONES_$(id)_"');
  });
});
