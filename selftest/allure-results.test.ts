// The Allure results after a run say what the verdict says: each judged test carries its outcome
// for the HTML report's categories, and environment.properties names the target and settings but
// never the token. Checked on files, without a target or a browser (html-report.test.ts uses one).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import type { TestOutcome } from '../helpers/judging/verdict.ts';
import { completeAllureResults, maskAllureResults } from '../helpers/report/allure-results.ts';
import { buildReport } from '../helpers/report/conformance-report.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';

const TOKEN = 'secret-token-for-allure';

const outcome = (title: string, state: TestOutcome['state'], reason?: string): TestOutcome =>
  sampleOutcome(title, state, { reason });

interface WrittenStep {
  name: string;
  status?: string;
  statusDetails?: { message?: string; trace?: string };
  steps?: WrittenStep[];
  attachments?: { name: string; source: string; type: string }[];
}

interface WrittenResult extends WrittenStep {
  status: string;
  statusDetails: { message?: string; trace?: string };
  labels: { name: string; value: string }[];
  description?: string;
  descriptionHtml?: string;
}

/** What allure-vitest wrote for a test, where a test needs more than its name and a status. */
type AsWritten = Record<string, Partial<WrittenResult>>;

/**
 * A run's reports folder with a result per outcome, as allure-vitest leaves it (by default a bare
 * result with the status vitest gave it; `asWritten` gives a test's own), then completed.
 */
function completedRun(outcomes: TestOutcome[], env: Record<string, string> = {}, asWritten: AsWritten = {}) {
  const reportsDir = mkdtempSync(join(tmpdir(), 'zc-allure-'));
  const results = join(reportsDir, 'allure-results');
  mkdirSync(results);
  outcomes.forEach((o, index) => {
    const status = { passed: 'passed', failed: 'failed', 'not-verified': 'skipped', 'suite-error': 'passed' }[o.state];
    const labels = [{ name: 'framework', value: 'vitest' }];
    const result = { name: o.title, status, statusDetails: {}, labels, ...asWritten[o.title] };
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
  expect(run.result('LIST-02 fails')).toMatchObject({
    status: 'failed',
    labels: expect.arrayContaining([{ name: 'outcome', value: 'MUST failure' }]),
  });
  // A warning is no failure in Allure either: not red, and it says WARNING before what the target did.
  expect(run.result('PROFILE-02 warns')).toMatchObject({
    status: 'passed',
    description: 'WARNING (SHOULD, does not change the verdict):\n\n```text\nexpected status 201, got 200\n```',
    labels: expect.arrayContaining([{ name: 'outcome', value: 'SHOULD warning' }]),
  });
  expect(run.result('ROBUST-05 warns')).toMatchObject({
    status: 'passed',
    description:
      'WARNING (MAY, does not change the verdict):\n\n```text\nexpected a refusal (4xx) or an empty list, got 500\n```',
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

/** The result and every step within it, at any depth. */
function everyPart(part: WrittenStep): WrittenStep[] {
  return [part, ...(part.steps ?? []).flatMap(everyPart)];
}

test('a model-based MUST failure is failed, as on the certificate, whether vitest saw it broken or passed', () => {
  const model = 'UPDATE-01 an update changes the name: sequences of operations agree with the model';
  const reader = 'CREATE-01 a created zone reads back: sequences of operations agree with the model';
  const sequence = 'zone A shows name "n1" instead of "n2", after 2 operation(s): create A; update A: name';
  const thrown = { message: sequence, trace: `Error: ${sequence}\n    at checkModelRule (model-tests.ts:37:36)` };
  // allure-vitest calls an error that is no assertion error broken, in the test and in its step.
  const run = completedRun(
    [
      outcome(model, 'failed', sequence),
      outcome(reader, 'failed', 'the sequences found a zone that did not read back'),
    ],
    {},
    {
      [model]: {
        status: 'broken',
        statusDetails: thrown,
        steps: [{ name: sequence, status: 'broken', statusDetails: thrown }],
      },
      [reader]: { status: 'passed', statusDetails: {} },
    },
  );
  expect(run.result(model)).toMatchObject({ status: 'failed', statusDetails: thrown });
  expect(everyPart(run.result(model)).map((part) => part.status)).toEqual(['failed', 'failed']);
  expect(run.result(reader)).toMatchObject({
    status: 'failed',
    statusDetails: { message: 'the sequences found a zone that did not read back' },
  });
});

test('a warning is shown one way: passed, no error in it or its steps, its text as escaped description', () => {
  const title = 'ROBUST-04 a body over 1 MiB is refused with a 4xx';
  const accepted =
    'expected a refusal (4xx), got 201\n\n> POST http://shop.example/zones.json\n< 201\n  {"zone":{"name":"<img src=x onerror=alert(1)>"}}';
  const failedExpectation = { message: accepted, trace: `Error: ${accepted}\n    at robustness.test.ts:40:7` };
  const exchanges = { name: 'exchanges', source: 'a-attachment.txt', type: 'text/plain' };
  const run = completedRun(
    [outcome(title, 'failed', accepted)],
    {},
    {
      [title]: {
        // As allure-vitest writes a failed expectation: in the test, and in the matcher's step.
        status: 'failed',
        statusDetails: failedExpectation,
        steps: [
          { name: 'expect(create).toSucceed()', status: 'passed', statusDetails: {} },
          { name: 'expect(answer).toBeRefused()', status: 'failed', statusDetails: failedExpectation },
          { name: 'exchanges', attachments: [exchanges] },
          {
            name: 'a step that failed holding evidence',
            status: 'failed',
            statusDetails: failedExpectation,
            attachments: [exchanges],
          },
        ],
      },
    },
  );
  const warning = run.result(title);
  expect(warning.status).toBe('passed');
  expect(warning.labels).toContainEqual({ name: 'outcome', value: 'MAY warning' });
  // Allure draws an error box for a message or a trace, in the test or in any step.
  for (const part of everyPart(warning)) {
    expect(part.statusDetails?.message, part.name).toBeUndefined();
    expect(part.statusDetails?.trace, part.name).toBeUndefined();
    expect(['failed', 'broken'], part.name).not.toContain(part.status);
  }
  expect(warning.steps!.map((step) => step.name)).toEqual([
    'expect(create).toSucceed()',
    'exchanges',
    'a step that failed holding evidence',
  ]);
  expect(warning.steps?.[2]?.attachments).toEqual([exchanges]);
  // What the target did is told once, after WARNING and its level, in a code block: Allure shows it
  // as text, the shop's markup and Markdown included (html-report.test.ts sees it in Chromium).
  expect(warning.description).toBe(`WARNING (MAY, does not change the verdict):\n\n\`\`\`text\n${accepted}\n\`\`\``);
  expect(warning.descriptionHtml).toBeUndefined();
});

test("a warning's code block outlasts any run of backticks the shop answered with", () => {
  const answered = 'expected status 201, got 200\n  {"name":"````md\\n# not a heading"}';
  const run = completedRun([outcome('PROFILE-02 warns', 'failed', answered)]);
  expect(run.result('PROFILE-02 warns').description).toBe(
    `WARNING (SHOULD, does not change the verdict):\n\n\`\`\`\`\`text\n${answered}\n\`\`\`\`\``,
  );
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
