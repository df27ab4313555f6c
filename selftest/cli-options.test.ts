// The options of `npm run conformance` a nightly job and a person at a terminal lean on: --rule by
// rule ids and families, --list, --quiet, and night over night with --baseline and --fail-on new,
// played against the reference with a real fault and baselines edited from a real certificate; and
// drift's --record-exchanges and --target-variables, which its two runs are started with.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import type { TestExchanges } from '../helpers/evidence/exchange-detail.ts';
import type { Comparison, ConformanceReport } from '../helpers/report/certificate.ts';
import { rules } from '../helpers/rules.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { runEntry } from './run-node.ts';

const TOKEN = 'shpat_selftest_options_0123456789';
const conformance = (env: Record<string, string>, args: string[] = []) => runEntry('bin/conformance.ts', args, env);
const reportsDir = () => mkdtempSync(join(tmpdir(), 'zc-options-'));
const readReport = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport & { comparison: Comparison };
const NOT_SELECTED = /^not selected \(--rule /;

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

  test('--rule AUTH,CREATE-02 runs exactly those rules; the rest are "not selected", never NOT VERIFIED', async () => {
    const dir = reportsDir();
    const run = await conformance({ ZONES_REPORTS_DIR: dir }, ['--rule', 'AUTH,CREATE-02']);
    const report = readReport(dir);
    const wanted = ['AUTH-01', 'AUTH-02', 'AUTH-03', 'AUTH-04', 'AUTH-05', 'AUTH-06', 'CREATE-02'];
    expect(rulesRun(report)).toEqual(wanted);
    for (const rule of report.rules.filter((r) => wanted.includes(r.id))) expect(rule.status, rule.id).toBe('passed');
    expect(report.selection).toEqual({ rule: 'AUTH,CREATE-02', rules: wanted });
    // A partial run cannot certify: incomplete, exit 2, and it says why.
    expect(report.verdict).toBe('incomplete');
    expect(run.code).toBe(2);
    expect(run.stdout).not.toContain('NOT VERIFIED');
    expect(run.stdout).toMatch(/^ {2}CREATE-01 +MUST +not selected +-$/m);
    // Its example test and its model-based one.
    expect(run.stdout).toMatch(/^ {2}CREATE-02 +MUST +passed +2\/2 passed$/m);
    expect(run.stdout).toMatch(/^ {2}-- auth: 15 test\(s\) done: 15 pass$/m);
    expect(run.stdout, 'no line for a test left out').not.toMatch(/ {2}n\/v +CREATE-01/);
    expect(run.stdout).toMatch(/MUST 7 passed, 0 failed, 0 not verified, 11 not selected \(--rule AUTH,CREATE-02\)/);
    // The closing table: one line per rule.
    for (const rule of rules)
      expect(run.stdout).toMatch(new RegExp(`^ {2}${rule.id} +${rule.level.toUpperCase()} `, 'm'));
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toMatch(/\| CREATE-01 \| MUST \| not selected \|/);
  });

  test('a family in lower case is the family; --quiet prints the verdict line alone', async () => {
    const dir = reportsDir();
    // The family's example tests say what was selected; the model-based suite is left out of this run.
    const run = await conformance({ ZONES_REPORTS_DIR: dir, ZONES_MODEL_RUNS: '0' }, ['--rule', 'create', '--quiet']);
    expect(rulesRun(readReport(dir))).toEqual(['CREATE-01', 'CREATE-02', 'CREATE-03']);
    expect(run.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^verdict: INCOMPLETE {2}MUST 3 passed, /)]);
    expect(run.code).toBe(2);
  });
});

describe('night over night: --baseline and --fail-on new', () => {
  let reference: RunningReference;
  let settings: Record<string, string>;
  /** Tonight's certificate against a shop whose updates ignore the name: UPDATE-01 fails. */
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

  beforeAll(async () => {
    reference = await startReference({ token: TOKEN, fault: 'update-ignores-name' });
    settings = {
      ...settingsForStyle(reference.style, reference.url, TOKEN),
      ...bookingHooksForReference(),
      // A comparison is of rule statuses, and the model-based suite's UPDATE-01 test would fail (and
      // shrink its sequence) beside the example one on every night, changing none of them.
      ZONES_MODEL_RUNS: '0',
    };
    const dir = reportsDir();
    const run = await conformance({ ...settings, ZONES_REPORTS_DIR: dir });
    expect(run.code, run.stderr).toBe(1);
    tonightPath = join(reportsDir(), 'conformance.json');
    copyFileSync(join(dir, 'conformance.json'), tonightPath);
    tonight = readReport(dir);
    // The names it keeps also miss two robustness probes: MAY warnings, there every night.
    const open = tonight.rules.filter((rule) => rule.status !== 'passed');
    expect(open.map((rule) => `${rule.id} ${rule.status}`)).toEqual([
      'UPDATE-01 failed',
      'ROBUST-06 warning',
      'ROBUST-07 warning',
    ]);
  });
  afterAll(() => reference.close());

  test('a rule that passed last night and fails tonight is new; one that failed and passes is fixed; exit 1', async () => {
    const baseline = baselineWith({
      'UPDATE-01': 'passed',
      'CREATE-01': 'failed',
      'PROFILE-01': 'warning',
      'UPDATE-02': 'not-verified',
    });
    const dir = reportsDir();
    // The rules whose status changed or stayed open; UPDATE-02, not verified then and passed now, is
    // newly verified; UPDATE-03 and 04 passed both nights and must be in no list. A new failure is
    // exit 1 whatever was left out.
    const run = await conformance({ ...settings, ZONES_REPORTS_DIR: dir }, [
      '--rule',
      'UPDATE,CREATE-01,PROFILE-01,ROBUST-06,ROBUST-07',
      '--baseline',
      baseline,
      '--fail-on',
      'new',
    ]);
    expect(run.code).toBe(1);
    const report = readReport(dir);
    const ids = (list: { id: string }[]) => list.map((rule) => rule.id);
    expect(ids(report.comparison.newFailures)).toEqual(['UPDATE-01']);
    expect(ids(report.comparison.fixed)).toEqual(['CREATE-01', 'PROFILE-01']);
    expect(ids(report.comparison.stillFailing)).toEqual(['ROBUST-06', 'ROBUST-07']);
    expect(report.comparison.newlyNotVerified).toEqual([]);
    expect(ids(report.comparison.newlyVerified)).toEqual(['UPDATE-02']);
    expect(report.comparison).toMatchObject({ failOn: 'new', exitCode: 1, baseline: { path: baseline } });
    expect(report).toMatchObject({ verdict: 'non-conformant', exitCode: 1 });
    expect(run.stdout).toMatch(/^ {2}new failures +UPDATE-01 \(MUST\)$/m);
    expect(run.stdout).toMatch(/^ {2}fixed +CREATE-01 \(MUST\), PROFILE-01 \(SHOULD\)$/m);
    expect(run.stdout).toMatch(/^ {2}newly verified +UPDATE-02 \(MUST\)$/m);
    const md = readFileSync(join(dir, 'conformance.md'), 'utf8');
    expect(md).toContain('## Since the baseline');
    expect(md).toContain('| new failures | UPDATE-01 (MUST) |');
    expect(md).toContain('| still failing | ROBUST-06 (MAY), ROBUST-07 (MAY) |');
    expect(md).toContain('| newly verified | UPDATE-02 (MUST) |');
    expect(readFileSync(join(dir, 'badge.svg'), 'utf8')).toContain('conformance: non-conformant');
  });

  test('the same failure as last night is still failing: --fail-on new exits 0, the verdict stays non-conformant', async () => {
    const dir = reportsDir();
    const run = await conformance({ ...settings, ZONES_REPORTS_DIR: dir }, [
      '--baseline',
      tonightPath,
      '--fail-on',
      'new',
      '--quiet',
    ]);
    expect(run.code).toBe(0);
    const report = readReport(dir);
    expect(report.comparison.stillFailing.map((rule) => rule.id)).toEqual(['UPDATE-01', 'ROBUST-06', 'ROBUST-07']);
    expect(report.comparison.newFailures).toEqual([]);
    // One exit code for the run, the process's, in every output; the verdict's own is said beside it.
    expect(report).toMatchObject({ verdict: 'non-conformant', exitCode: 0, comparison: { exitCode: 0 } });
    const why = "0 by --fail-on new (new MUST failures only; the verdict's own is 1)";
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toMatch(
      /^# Conformance certificate: NON-CONFORMANT[\s\S]*Exit code 0 by --fail-on new \(new MUST failures only; the verdict's own is 1\)/,
    );
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain(
      `| Verdict | **non-conformant** (exit code ${why}) |`,
    );
    expect(readFileSync(join(dir, 'conformance.html'), 'utf8')).toContain(`Exit code ${why.replaceAll("'", '&#39;')}.`);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain(`**non-conformant** (exit code ${why})`);
    expect(run.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^verdict: NON-CONFORMANT /),
      'since the baseline: new failures none; fixed none; still failing UPDATE-01 (MUST), ROBUST-06 (MAY), ROBUST-07 (MAY); newly not verified none; newly verified none',
    ]);
  });

  test('without --fail-on the comparison is reported and the exit code is the verdict’s', async () => {
    const dir = reportsDir();
    // UPDATE-01 alone, still failing: --fail-on new would exit 2 for the MUST rules left out, the verdict 1.
    const run = await conformance({ ...settings, ZONES_REPORTS_DIR: dir }, [
      '--rule',
      'UPDATE-01',
      '--baseline',
      tonightPath,
    ]);
    expect(run.code).toBe(1);
    expect(readReport(dir).comparison).toMatchObject({ failOn: null, exitCode: 1 });
  });

  test('a rule that passed last night and cannot be checked tonight is newly not verified: exit 2', async () => {
    const dir = reportsDir();
    // No booking hook: DELETE-02 cannot be checked. The rules left out are compared with nothing.
    const { ZONES_BOOKING_HOOK: _hook, ZONES_BOOKING_CLEANUP_HOOK: _cleanup, ...unbooked } = settings;
    const run = await conformance({ ...unbooked, ZONES_REPORTS_DIR: dir }, [
      '--rule',
      'DELETE-02',
      '--baseline',
      tonightPath,
      '--fail-on',
      'new',
    ]);
    const { comparison } = readReport(dir);
    expect(comparison.newlyNotVerified.map((rule) => rule.id)).toEqual(['DELETE-02']);
    expect(comparison.stillFailing, 'UPDATE-01 was not selected').toEqual([]);
    expect(comparison.fixed).toEqual([]);
    expect(run.code).toBe(2);
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
    for (const [path, why] of [
      [otherShop, `certified another target, https://other-shop.example, not ${reference.url}`],
      [otherVersion, `certified API version 2025-10, not ${tonight.target.settings.apiVersion} (ZONES_API_VERSION)`],
    ] as const) {
      const dir = reportsDir();
      const run = await conformance({ ...settings, ZONES_REPORTS_DIR: dir }, ['--baseline', path, '--fail-on', 'new']);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(`--baseline ${path}: ${why}`);
      expect(readReport(dir)).toMatchObject({ verdict: 'could-not-run' });
    }
    const dir = reportsDir();
    const same = await conformance({ ...settings, ZONES_REPORTS_DIR: dir }, [
      '--rule',
      'UPDATE-01',
      '--baseline',
      sameShop,
    ]);
    expect(same.code, same.stderr).toBe(1);
    expect(readReport(dir).comparison.stillFailing.map((rule) => rule.id)).toEqual(['UPDATE-01']);
  });

  test('a baseline that is missing, not JSON, not a certificate, or of a run that could not run: exit 3 naming it', async () => {
    const dir = reportsDir();
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, 'night-1');
    const other = join(dir, 'other.json');
    writeFileSync(other, '{"name":"zones-conformance"}');
    const couldNotRun = join(dir, 'could-not-run.json');
    writeFileSync(couldNotRun, JSON.stringify({ suite: 'zones-conformance', verdict: 'could-not-run', exitCode: 3 }));
    for (const [path, why] of [
      [join(dir, 'missing.json'), /no such file/],
      [notJson, /cannot be read as JSON/],
      [other, /is not a conformance\.json/],
      [couldNotRun, /could not run/],
    ] as const) {
      const run = await conformance({ ...settings, ZONES_REPORTS_DIR: reportsDir() }, ['--baseline', path]);
      expect(run.code, path).toBe(3);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(`--baseline ${path}: `);
      expect(run.stderr).toMatch(why);
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
    for (const path of [couldNotComplete, previous]) {
      const run = await conformance({ ...settings, ZONES_REPORTS_DIR: dir }, ['--baseline', path, '--fail-on', 'new']);
      expect(run.code, path).toBe(3);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
      expect(run.stderr).toContain(refusal(path));
    }
  });
});

describe("drift's options: --record-exchanges and --target-variables", () => {
  let reference: RunningReference;
  let settings: Record<string, string>;

  beforeAll(async () => {
    reference = await startReference({ token: TOKEN, fault: 'update-ignores-name' });
    settings = { ...settingsForStyle(reference.style, reference.url, TOKEN), ZONES_MODEL_RUNS: '0' };
  });
  afterAll(() => reference.close());

  test("a run given both writes each test's exchanges to the file, and every command it prints reads the mock's names", async () => {
    const dir = reportsDir();
    const file = join(reportsDir(), 'exchanges.jsonl');
    const options = ['--record-exchanges', file, '--target-variables', 'ZONES_MOCK_'];
    const run = await conformance({ ...settings, ZONES_REPORTS_DIR: dir }, ['--rule', 'UPDATE-01', ...options]);
    expect(run.code, run.stderr).toBe(1);
    const tests = readFileSync(file, 'utf8')
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
      expect(readFileSync(join(dir, name), 'utf8'), name).toContain(
        'read the credential from ZONES_MOCK_ACCESS_TOKEN:',
      );
    const results = join(dir, 'allure-results');
    const attachments = readdirSync(results).map((name) => readFileSync(join(results, name), 'utf8'));
    expect(attachments.some((text) => text.startsWith('# Set ZONES_MOCK_ACCESS_TOKEN first'))).toBe(true);
    expect(readReport(dir).target.variables).toBe('ZONES_MOCK_');
  });

  test('without them a run records nothing and its commands read ZONES_ACCESS_TOKEN', async () => {
    const dir = reportsDir();
    const run = await conformance({ ...settings, ZONES_REPORTS_DIR: dir }, ['--rule', 'UPDATE-01']);
    expect(run.code, run.stderr).toBe(1);
    expect(readdirSync(dir).filter((name) => name.endsWith('.jsonl'))).toEqual([]);
    expect(readFileSync(join(dir, 'conformance.md'), 'utf8')).toContain('read the credential from ZONES_ACCESS_TOKEN:');
    expect(readReport(dir).target.variables).toBeUndefined();
  });

  test('a prefix that is not the start of a plain shell name is exit 3, naming the option', async () => {
    const run = await conformance({ ...settings, ZONES_REPORTS_DIR: reportsDir() }, [
      '--target-variables',
      'ZONES_$(id)_',
    ]);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('--target-variables takes a prefix like ZONES_MOCK_');
    expect(run.stderr).toContain('not "ZONES_$(id)_"');
  });
});
