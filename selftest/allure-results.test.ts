// The Allure results after a run say what the verdict says: each judged test carries its outcome
// for the HTML report's categories, and environment.properties names the target and settings but
// never the token. Checked on files, without a target or a browser (html-report.test.ts uses one).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import { completeAllureResults, maskAllureResults } from '../helpers/report/allure-results.ts';
import { buildReport } from '../helpers/report/conformance-report.ts';
import type { TestOutcome } from '../helpers/runner/verdict.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';

const TOKEN = 'secret-token-for-allure';

const outcome = (title: string, state: TestOutcome['state'], reason?: string): TestOutcome =>
  sampleOutcome(title, state, { reason });

interface WrittenResult {
  name: string;
  status: string;
  statusDetails: { message?: string };
  labels: { name: string; value: string }[];
}

/** A run's reports folder with a result per outcome, as allure-vitest leaves it, then completed. */
function completedRun(outcomes: TestOutcome[], env: Record<string, string> = {}) {
  const reportsDir = mkdtempSync(join(tmpdir(), 'zc-allure-'));
  const results = join(reportsDir, 'allure-results');
  mkdirSync(results);
  outcomes.forEach((o, index) => {
    const status = { passed: 'passed', failed: 'failed', 'not-verified': 'skipped', 'suite-error': 'passed' }[o.state];
    const result = { name: o.title, status, statusDetails: {}, labels: [{ name: 'framework', value: 'vitest' }] };
    writeFileSync(join(results, `${index}-result.json`), JSON.stringify(result));
  });
  const config = readTargetConfig({
    ZONES_BASE_URL: 'https://shop.example',
    ZONES_ACCESS_TOKEN: TOKEN,
    ZONES_REPORTS_DIR: reportsDir,
    ...env,
  });
  const report = buildReport(sampleRunFacts(config, outcomes));
  completeAllureResults(report, reportsDir);
  maskAllureResults(reportsDir, new Secrets({ token: TOKEN }));
  const written = readdirSync(results)
    .filter((name) => name.endsWith('-result.json'))
    .map((name) => JSON.parse(readFileSync(join(results, name), 'utf8')) as WrittenResult);
  return {
    result: (title: string) => written.find((r) => r.name === title)!,
    environment: readFileSync(join(results, 'environment.properties'), 'utf8'),
  };
}

const outcomeLabel = (result: WrittenResult) => result.labels.find((label) => label.name === 'outcome')?.value;

test('each judged test carries its outcome; a pass carries none', () => {
  const run = completedRun([
    outcome('LIST-01 passes', 'passed'),
    outcome('LIST-02 fails', 'failed', 'zone 7 answers the filter'),
    outcome('PROFILE-02 warns', 'failed', 'expected status 201, got 200'),
    outcome('ROBUST-05 warns', 'failed', 'expected a refusal (4xx) or an empty list, got 500'),
    outcome('DELETE-02 is open', 'not-verified', 'no booking fixture'),
    outcome('CREATE-01 sent nothing', 'suite-error', 'suite defect: the test passed without sending a request'),
  ]);
  expect(outcomeLabel(run.result('LIST-01 passes'))).toBeUndefined();
  expect(outcomeLabel(run.result('LIST-02 fails'))).toBe('MUST failure');
  // A warning is no failure in Allure either: not red, and it says WARNING before what the target did.
  expect(run.result('PROFILE-02 warns')).toMatchObject({
    status: 'passed',
    statusDetails: { message: 'WARNING (SHOULD, does not change the verdict): expected status 201, got 200' },
    labels: expect.arrayContaining([{ name: 'outcome', value: 'SHOULD warning' }]),
  });
  expect(run.result('ROBUST-05 warns')).toMatchObject({
    status: 'passed',
    statusDetails: {
      message: 'WARNING (MAY, does not change the verdict): expected a refusal (4xx) or an empty list, got 500',
    },
    labels: expect.arrayContaining([{ name: 'outcome', value: 'MAY warning' }]),
  });
  expect(run.result('DELETE-02 is open')).toMatchObject({
    status: 'skipped',
    statusDetails: { message: 'no booking fixture' },
    labels: expect.arrayContaining([{ name: 'outcome', value: 'not verified' }]),
  });
  // A check that proved nothing is a defect of the test, whatever vitest made of it.
  expect(run.result('CREATE-01 sent nothing')).toMatchObject({
    status: 'broken',
    statusDetails: { message: 'suite defect: the test passed without sending a request' },
    labels: expect.arrayContaining([{ name: 'outcome', value: 'suite defect' }]),
  });
});

test('a test outside the catalogue is a suite defect in Allure too', () => {
  const stray = outcome(
    'NOPE-01 stray',
    'suite-error',
    'suite defect: the title does not start with a catalogue rule id',
  );
  const run = completedRun([outcome('LIST-01 passes', 'passed'), { ...stray, ruleId: undefined }]);
  expect(outcomeLabel(run.result('NOPE-01 stray'))).toBe('suite defect');
});

test('environment.properties names the target and the settings, escaped, and no byte of the token', () => {
  const run = completedRun([outcome('LIST-01 passes', 'passed')], {
    ZONES_EXTRA_FIELDS: `{"note":"line one\\nkey=${TOKEN}"}`,
    ZONES_BOOKING_HOOK: `book --token ${TOKEN}`,
  });
  expect(run.environment).toMatch(/^target=https:\/\/shop\.example\n/);
  expect(run.environment).toContain('\napiVersion=2026-07\n');
  expect(run.environment).toContain('\nstatuses=draft, published\n');
  expect(run.environment).toContain('\ntoken=(set, not shown)\n');
  expect(run.environment).toContain('\nbookingHook=(set, not shown)\n');
  // A backslash is escaped, so that Allure reads the value back as it was written.
  expect(run.environment).toMatch(/\nextraFields=\{"note":"line one\\\\nkey=<redacted>"\}\n/);
  expect(run.environment).not.toContain(TOKEN);
});
