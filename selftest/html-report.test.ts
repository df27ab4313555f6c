// The HTML report as its reader meets it the morning after. Two nights against a reference that
// breaks UPDATE-01 in the `other-codes` house style with no booking hook: a MUST failure (in an example
// test and in the model-based one), SHOULD warnings, MAY warnings (the probes that rename a zone) and a
// rule not verified. `npm run report` builds the report after each night, and headless Chromium opens
// the file itself, as a downloaded CI artifact is opened: no server. Each state is the certificate's:
// a MUST failure is failed, a warning passed with no error box.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { settingsForStyle } from '../bin/reference-settings.ts';
import { MODEL_TEST_LABEL } from '../helpers/harness/model/title.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { killGroup, runEntry, startNpmRun } from './run-node.ts';
import { fileUrl, launchChromium, openOffline, skipChromium } from './support/chromium.ts';

const EXAMPLE_FAILURE = 'UPDATE-01 an update changes the name';
const MODEL_FAILURE = `${EXAMPLE_FAILURE}: ${MODEL_TEST_LABEL}`;
const TOKEN = 'shpat_selftest_html_0123456789abcdef';
const inChromium = 'the HTML report in headless Chromium';
const noChromium = skipChromium(inChromium);

async function npmRunReport(env: Record<string, string>): Promise<void> {
  const started = startNpmRun('report', [], env);
  try {
    const run = await started.done;
    expect(run.code, run.stderr).toBe(0);
    // The certificate page first, the page to open; Allure's after it, for drill-down.
    expect(run.stdout).toMatch(
      /certificate: .*conformance\.html \(open this first\)\n.*HTML report: .*allure-report\/index\.html/,
    );
  } finally {
    killGroup(started);
  }
}

test('npm run report -- --help says what it builds and exits 0, building nothing; an unknown option is exit 3', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'zc-html-'));
  const help = await runEntry('bin/report.ts', ['--help'], { ZONES_REPORTS_DIR: dir });
  expect([help.code, help.stderr]).toEqual([0, '']);
  expect(help.stdout).toMatch(/^Usage: npm run report/);
  expect(help.stdout).toContain('conformance.html');
  const unknown = await runEntry('bin/report.ts', ['--open-everything'], { ZONES_REPORTS_DIR: dir });
  expect(unknown.code).toBe(3);
  expect(unknown.stderr.trim()).toMatch(/Unknown option '--open-everything' \(see --help\)$/);
});

test('without results from a run, npm run report says so in one line and exits 3', async () => {
  const run = await runEntry('bin/report.ts', [], { ZONES_REPORTS_DIR: mkdtempSync(join(tmpdir(), 'zc-html-')) });
  expect(run.code).toBe(3);
  expect(run.stderr.trim().split('\n')).toEqual([
    expect.stringMatching(
      /cannot build the report: no test results in .*allure-results: run npm run conformance first/,
    ),
  ]);
});

// A loaded 2-core machine can take many seconds to lay out a report of a few MB: the waits are generous,
// and the test, not a timer, decides what the page must show. Beside the rest of npm test, a page has
// been seen to take over 40 s to show its search box; a healthy one shows it in a second or two.
describe.skipIf(noChromium)(inChromium, () => {
  let reference: RunningReference;
  let reportsDir: string;
  let browser: Browser;
  let page: Page;
  let env: Record<string, string>;
  /** allure-history.jsonl after each build of last night's report. */
  const historyAfterBuilds: string[] = [];

  beforeAll(async () => {
    reference = await startReference({ token: TOKEN, style: 'other-codes', fault: 'update-ignores-name' });
    reportsDir = mkdtempSync(join(tmpdir(), 'zc-html-'));
    // The model-based suite runs, as little as shows its UPDATE-01 test failing: the story of a rename
    // followed by another update (helpers/harness/model/top-up.ts) finds the ignored name on any seed,
    // before the one random sequence. Its error is no assertion error, which allure-vitest calls broken.
    env = {
      ...settingsForStyle(reference.style, reference.url, TOKEN),
      ZONES_REPORTS_DIR: reportsDir,
      ZONES_MODEL_RUNS: '1',
      ZONES_MODEL_SEED: '1',
      ZONES_MODEL_SHRINK_REQUESTS: '0',
    };
    // Last night ran one rule only, and its report was built twice (a retried CI step): the second build must
    // add nothing to the history. Tonight runs them all, with last night's history kept in place, and its report
    // is built as a person builds it, with npm run report.
    const lastNight = await runEntry('bin/conformance.ts', ['--rule', 'UPDATE-01'], env);
    expect(lastNight.code, lastNight.stderr).toBe(1);
    const history = join(reportsDir, 'allure-history.jsonl');
    for (const build of [1, 2]) {
      const report = await runEntry('bin/report.ts', [], env);
      expect(report.code, `build ${build}: ${report.stderr}`).toBe(0);
      historyAfterBuilds.push(readFileSync(history, 'utf8'));
    }
    const tonight = await runEntry('bin/conformance.ts', [], env);
    expect(tonight.code, tonight.stderr).toBe(1);
    await npmRunReport(env);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await reference?.close();
  });

  const reportUrl = () => fileUrl(join(reportsDir, 'allure-report', 'index.html'));
  /**
   * The report as a reader opens it first, at one of its pages (a test's, say) if given. One page, loaded once,
   * moves between them by the address's hash, as the report's own links do: a load of a report of a few MB costs
   * seconds of CPU. The report keeps its view (the tab last chosen, the folders and attachments opened) in the
   * browser's storage, so the tests on this page click no tab until the last (the categories); the failed test's
   * tabs are clicked on a page of their own.
   */
  async function openReport(hash = ''): Promise<void> {
    if (page) {
      await page.evaluate((to) => {
        window.location.hash = to;
      }, hash);
      return;
    }
    // Tall enough that the report's fixed footer never covers the row a click aims at.
    // The report must stand on its own: nothing is fetched from anywhere but the file.
    ({ page } = await openOffline(browser, `${reportUrl()}${hash}`, { width: 1280, height: 2400 }));
  }
  // innerText: the page as a reader sees it (textContent runs labels and values together).
  const text = (on = page) => on.locator('body').innerText();
  let failedTest: Promise<Page> | undefined;
  /**
   * The failed example test of UPDATE-01, found as a reader finds it: by searching the tree. One page, in its own
   * context, for the tests that read its tabs (exchanges, curl, history): a load of the report costs seconds of
   * CPU, and each of those tests opens what it reads by its own click, whatever the one before left open.
   */
  function openFailedTest(): Promise<Page> {
    failedTest ??= (async () => {
      const { page } = await openOffline(browser, reportUrl(), { width: 1280, height: 2400 });
      await page.getByPlaceholder('Search tests').fill('UPDATE-01');
      // Exactly this title: the model-based test's begins with it.
      await page.getByTestId('tree-leaf-title').getByText(EXAMPLE_FAILURE, { exact: true }).click();
      await page.getByTestId('test-result-info-title').getByText(EXAMPLE_FAILURE, { exact: true }).waitFor();
      return page;
    })();
    return failedTest;
  }
  /** A test's own page, by the id the report gave it: the tree keeps the folders of tests that did not fail closed. */
  async function openTestPage(title: string): Promise<void> {
    const listed = JSON.parse(readFileSync(join(reportsDir, 'allure-report', 'test-results.json'), 'utf8')) as {
      byId: Record<string, { id: string; name: string }>;
    };
    const id = Object.values(listed.byId).find((result) => result.name === title)?.id;
    expect(id, `${title} is in the report`).toBeDefined();
    await openReport(`#${id}`);
    await page.getByTestId('test-result-info-title').getByText(title).waitFor();
  }

  test('the overview shows the target, the verdict and the settings, and no byte of the token', async () => {
    await openReport();
    await page.getByText('non-conformant (exit code 1)').waitFor();
    const overview = await text();
    expect(overview).toMatch(new RegExp(`target\\s+${reference.url.replace(/\./g, '\\.')}\\s`));
    expect(overview).toMatch(/apiVersion\s+2026-07/);
    const html = readFileSync(join(reportsDir, 'allure-report', 'index.html'), 'utf8');
    expect(html).not.toContain(TOKEN);
    // It asks nothing of the internet, and its app waits for the data the page holds (it would fetch
    // files, which a page opened from disk may not, when it started before the data was assigned).
    expect(html).not.toMatch(/<script[^>]+src="https?:/);
    expect(html.indexOf('window.allureReportData = {}')).toBeLessThan(html.indexOf('data:text/javascript'));
  });

  test('the failed MUST rule opens on the exchanges behind it, the PUT that was answered 200 among them', async () => {
    const failed = await openFailedTest();
    await failed.getByText('Category: MUST failure').waitFor();
    await failed.getByTestId('test-result-tab-attachments').click();
    await failed.getByText('exchanges', { exact: true }).click();
    await failed
      .getByText(/> PUT http/)
      .first()
      .waitFor();
    expect(await text(failed)).toMatch(
      /> PUT http:\/\/127\.0\.0\.1:\d+\/admin\/api\/2026-07\/zones\/\S+\.json.*\n.*\n< 200 /,
    );
  });

  test('each exchange of the failed rule comes with the curl command that replays it, the token left to the shell', async () => {
    const failed = await openFailedTest();
    await failed.getByTestId('test-result-tab-attachments').click();
    await failed.getByText('replay with curl', { exact: true }).click();
    await failed
      .getByText(/curl -sS -i -X PUT /)
      .first()
      .waitFor();
    const commands = (await text(failed)).split('\n').filter((line) => line.startsWith('curl '));
    expect(commands.map((command) => command.split(' ')[4])).toEqual(['POST', 'PUT', 'PUT', 'GET']);
    for (const command of commands) expect(command).toContain(`'X-Auth-Token: '"$ZONES_ACCESS_TOKEN"`);
  });

  test('a MUST failure of the model-based run opens as failed, as on the certificate, never as broken', async () => {
    await openTestPage(MODEL_FAILURE);
    await page.getByText('Category: MUST failure').waitFor();
    // Its error and the step that threw it are on the page before anything is counted.
    await page
      .getByTestId('test-result-error')
      .getByText(/the shortest sequence found/)
      .first()
      .waitFor();
    expect(await page.getByTestId('test-result-status-failed').count()).toBe(1);
    expect(await page.getByTestId('test-result-status-broken').count()).toBe(0);
    // The step that threw it is failed too: one colour for the failure's evidence.
    const steps = page.getByTestId('test-result-steps-root');
    expect(await steps.getByTestId('tree-leaf-status-failed').count()).toBe(1);
    expect(await steps.getByTestId('tree-leaf-status-broken').count()).toBe(0);
  });

  /**
   * A warning's page shows one state: passed, with what the target did as its description, in words,
   * and no error box, neither for the test nor for the expectation the verdict forgave.
   */
  async function expectWarningShownOneWay(title: string, category: string, targetDid: RegExp): Promise<void> {
    await openTestPage(title);
    await page.getByText(`Category: ${category}`).waitFor();
    const description = page.frameLocator('[data-testid="test-result-description-frame"]');
    await description.getByText(targetDid).first().waitFor();
    // The test body, with its attachments, is laid out before the error boxes are counted.
    await page.getByText('replay with curl', { exact: true }).waitFor();
    expect(await page.getByTestId('test-result-status-passed').count()).toBe(1);
    expect(await page.getByTestId('test-result-status-failed').count()).toBe(0);
    expect(await page.getByTestId('test-result-error').count()).toBe(0);
    const steps = page.getByTestId('test-result-steps-root');
    expect(
      await steps.locator('[data-testid="tree-leaf-status-failed"], [data-testid="tree-leaf-status-broken"]').count(),
    ).toBe(0);
    const said = await description.locator('body').innerText();
    expect(said).toMatch(new RegExp(`^WARNING \\(${category.split(' ')[0]}, does not change the verdict\\):`));
    // The exchange is text as sent and answered: its "> " lines are no Markdown quote.
    expect(said).toMatch(/^> (GET|POST|PUT) http:\/\/127\.0\.0\.1:\d+\//m);
  }

  test('a SHOULD warning opens as passed, with what the target did as its description, and no error box', async () => {
    await expectWarningShownOneWay(
      'PROFILE-02 success codes follow the profile: create answers 201',
      'SHOULD warning',
      /expected status 201, got 200/,
    );
  });

  test('a MAY warning opens as passed, with what the target did as its description, and no error box', async () => {
    await expectWarningShownOneWay(
      'ROBUST-06 a name in non-Latin scripts and emoji round-trips unchanged',
      'MAY warning',
      /the update answer's name/,
    );
  });

  test('the categories sort the results as the verdict did: MUST failure, SHOULD warning, MAY warning, not verified', async () => {
    await openReport();
    await page.getByTestId('nav-tab-categories').click();
    await page.getByText('SHOULD warning', { exact: true }).click();
    await page.getByText('MAY warning', { exact: true }).click();
    await page.getByText('not verified', { exact: true }).click();
    await page.getByText(/^no booking fixture/).waitFor();
    const categories = await text();
    expect(categories).toMatch(/MUST failure\s+2\s+rule\s+UPDATE-01\s+2\s/);
    expect(categories).toMatch(/SHOULD warning\s+3\s+rule\s+PROFILE-02\s[\s\S]*rule\s+PROFILE-03\s/);
    expect(categories).toMatch(/MAY warning\s+2\s+rule\s+ROBUST-06\s[\s\S]*rule\s+ROBUST-07\s/);
    expect(categories).toMatch(
      /not verified\s+2\s+rule\s+DELETE-02\s+1\s+no booking fixture: set ZONES_BOOKED_ZONE_ID/,
    );
  });

  test("last night's failure is in the failed test's history", async () => {
    expect(readFileSync(join(reportsDir, 'allure-history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    const failed = await openFailedTest();
    await failed.getByTestId('test-result-tab-history').click();
    const lastNight = failed.getByTestId('test-result-history-item');
    // The tab lays out its items after the click: waited for as Playwright's own waits are (support/chromium.ts), not vitest's 1 s.
    await expect.poll(() => lastNight.count(), { timeout: 120_000 }).toBe(1);
    expect(await lastNight.getByTestId('tree-leaf-status-failed').count()).toBe(1);
  });

  test('building the report again from the same run adds nothing to the history', () => {
    const [first, again] = historyAfterBuilds;
    expect(first?.trim().split('\n')).toHaveLength(1);
    expect(again).toBe(first);
  });
});
