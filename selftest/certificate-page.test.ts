// The certificate page (reports/conformance.html) as its reader meets it: opened from disk in headless
// Chromium at 1440x900, with no server and no network, one browser for the file. One whole run of a shop on its
// third night, a release that answers a filtered list without a credential, after two good nights kept as the
// nightly job keeps them; the page that run wrote, and the same certificate after a month of nights, written by
// the function every run writes its reports with, at a laptop's and a phone's width; then a shop whose answers
// carry markup and a script, which the page must show as text and never run.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { renderDriftPage } from '../helpers/drift/drift-files.ts';
import type { DriftReport } from '../helpers/drift/drift-report.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { STRIP_NIGHTS } from '../helpers/report/certificate-page.ts';
import { HISTORY_FILE, type Night, nightOf, writeNights } from '../helpers/report/history.ts';
import { writeReports } from '../helpers/report/write-reports.ts';
import { rules, SPEC_VERSION } from '../helpers/rules.ts';
import { resolveFault } from '../reference/faults.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { projectRoot, runEntry } from './run-node.ts';
import { fileUrl, launchChromium, openOffline, skipChromium } from './support/chromium.ts';
import { driftReportFixture, sideRan } from './support/drift-report-fixture.ts';
import { type Answer, type RewritingFront, startRewritingFront } from './support/rewriting-front.ts';

const TOKEN = 'shpat_selftest_certificate_page_0123456789';
const noChromium = skipChromium('the certificate page in Chromium');
/** The release of the third night: a filtered list answers without a credential. */
const THIRD_NIGHT_FAULT = resolveFault('filtered-list-open')!;

/** The certificate page at a screen's size (a laptop's unless given): it must stand alone. */
function openFile(browser: Browser, path: string, viewport = { width: 1440, height: 900 }) {
  return openOffline(browser, fileUrl(path), viewport);
}

/** Settings for the suite against a reference at `url` (itself or a front of it), with the reference's booking hooks (DELETE-02). */
function settingsFor(reference: RunningReference, url: string, reportsDir: string): Record<string, string> {
  return {
    ...settingsForStyle(reference.style, url, TOKEN),
    ...bookingHooksForReference(),
    ZONES_REPORTS_DIR: reportsDir,
    // The model-based suite's random sequences are left out: the example tests decide every rule, the
    // same way each night, and a run costs a few seconds.
    ZONES_MODEL_RUNS: '0',
    // The reference shows every write at once; with the default wait, each night of the broken release
    // would wait for a status change that never comes.
    ZONES_CONSISTENCY_TIMEOUT_MS: '0',
  };
}

const readReport = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as ConformanceReport;

/** Asserts that `locator` shows whole within the first `height` pixels of the page, unscrolled. */
async function inFirstScreen(what: string, locator: ReturnType<Page['locator']>, height: number): Promise<void> {
  await locator.waitFor({ state: 'visible' });
  const box = await locator.boundingBox();
  expect(box, `${what} has a box`).not.toBeNull();
  expect(box!.y, `${what} starts on the first screen`).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height, `${what} ends on the first screen`).toBeLessThanOrEqual(height);
}

/** Keeps a screenshot of the page's first screen beside the self-test's output and in reports/selftest/. */
async function keepScreenshot(
  page: Page,
  name: string,
  annotate: (message: string, attachment: { contentType: string; body: Buffer }) => Promise<unknown>,
) {
  const screenshot = await page.screenshot();
  const path = join(projectRoot, 'reports', 'selftest', `${name}.png`);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, screenshot);
  await annotate(`the first screen, ${name}, also in ${path}`, { contentType: 'image/png', body: screenshot });
}

/** Nights of `target` before `tonight`, as the nightly job kept them: every rule passed, a day apart, the last a day before. */
function earlierNights(target: Night['target'], tonight: Date, count: number): Night[] {
  const day = 24 * 60 * 60 * 1000;
  return Array.from({ length: count }, (_, n) => ({
    runId: `earlier-${n + 1}`,
    startedAt: new Date(tonight.getTime() - (count - n) * day).toISOString(),
    verdict: 'conformant',
    target,
    rules: Object.fromEntries(rules.map((rule) => [rule.id, 'passed'])),
    suiteDefects: [],
  }));
}

/** Earlier nights kept in a reports folder, by the writer every run keeps its nights with. */
const keepNights = (dir: string, nights: Night[]) =>
  writeNights(join(dir, HISTORY_FILE), nights, new Secrets({ token: TOKEN }));

let browser: Browser;
/** The one whole run: the third night, its two nights before kept in its reports folder. */
let reportsDir: string;
let code: number | null;

beforeAll(async () => {
  if (noChromium) return;
  const broken = await startReference({ token: TOKEN, fault: THIRD_NIGHT_FAULT.name });
  try {
    reportsDir = mkdtempSync(join(tmpdir(), 'zc-page-'));
    const env: Record<string, string> = {
      ...settingsFor(broken, broken.url, reportsDir),
      ZONES_API_VERSION: SPEC_VERSION,
    };
    const target = { baseUrl: env.ZONES_BASE_URL!, embedded: false, apiVersion: SPEC_VERSION };
    keepNights(reportsDir, earlierNights(target, new Date(), 2));
    const run = await runEntry('bin/conformance.ts', [], env);
    code = run.code;
    expect(run.code, run.stderr).not.toBe(3);
  } finally {
    await broken.close();
  }
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe.skipIf(noChromium)(`three nights of one shop, the third breaking AUTH-01, in Chromium`, () => {
  let page: Page;
  let consoleSeen: string[];

  beforeAll(async () => {
    ({ page, console: consoleSeen } = await openFile(browser, join(reportsDir, 'conformance.html')));
  });

  test('the third night went as the specification says: AUTH-01 failed alone, and it joined the two nights before', () => {
    // A correct shop passes every rule (gallery.test.ts certifies the reference in every house style). One whose
    // filtered list answers without a credential breaks Authentication 1 (every endpoint requires it), which
    // AUTH-01 checks on the filtered list too; no other test sends a filtered list without a credential (the
    // profile's refusal checks use the unfiltered one), so nothing else changes. Its `breaks` in
    // reference/faults.ts say the same.
    expect(THIRD_NIGHT_FAULT.breaks).toEqual(['AUTH-01']);
    expect(code).toBe(1);
    const tonight = readReport(reportsDir);
    const expected = Object.fromEntries(
      rules.map((rule) => [rule.id, THIRD_NIGHT_FAULT.breaks.includes(rule.id) ? 'failed' : 'passed']),
    );
    expect(Object.fromEntries(tonight.rules.map((rule) => [rule.id, rule.status]))).toEqual(expected);
    expect(readFileSync(join(reportsDir, HISTORY_FILE), 'utf8').trim().split('\n')).toHaveLength(3);
  });

  test('the verdict and every rule id are on the first screen, without scrolling', async ({ annotate }) => {
    const verdict = page.locator('#verdict h1');
    await inFirstScreen('the verdict', verdict, 900);
    expect(await verdict.innerText()).toBe('NON-CONFORMANT');
    for (const rule of rules) await inFirstScreen(rule.id, page.locator(`[data-rule="${rule.id}"] .id`), 900);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await keepScreenshot(page, 'certificate-page-1440x900', annotate);
  });

  test("each rule's status on the page is conformance.json's, rule by rule", async () => {
    const onPage = await page
      .locator('[data-rule]')
      .evaluateAll((cells) => cells.map((cell) => [cell.getAttribute('data-rule'), cell.getAttribute('data-status')]));
    const inJson = readReport(reportsDir).rules.map((rule) => [rule.id, rule.status]);
    expect(onPage).toEqual(inJson);
    expect(await page.locator('[data-rule="AUTH-01"] .state').innerText()).toBe('failed');
  });

  test('each rule shows its three nights, tonight last, and only AUTH-01 is marked as changed', async () => {
    for (const rule of rules) {
      const nights = page.locator(`[data-rule="${rule.id}"] .night`);
      expect(await nights.count(), rule.id).toBe(3);
      expect(await nights.last().getAttribute('title'), rule.id).toMatch(/\(tonight\): /);
    }
    expect(
      await page.locator('[data-rule="AUTH-01"] .night').evaluateAll((cells) => cells.map((c) => c.className)),
    ).toEqual(['night s-passed', 'night s-passed', 'night s-failed']);
    const changed = page.locator('[data-changed="true"]');
    expect(await changed.evaluateAll((rows) => rows.map((row) => row.getAttribute('data-rule')))).toEqual(['AUTH-01']);
    await changed.locator('.changed').waitFor({ state: 'visible' });
    const history = await page.locator('.history').innerText();
    expect(history).toContain(`3 nights of this target in ${join(reportsDir, HISTORY_FILE)}`);
    expect(history).toMatch(/Changed since the night of .*: AUTH-01 \(passed → failed\)\./);
  });

  test('the page loaded nothing and logged no error', () => {
    expect(consoleSeen).toEqual([]);
  });
});

/** Where each rule row's parts and tonight's cell are on the screen, in CSS pixels. */
interface RowLayout {
  rule: string;
  cells: number;
  tonightTitle: string;
  tonight: DOMRectReadOnly;
  strip: DOMRectReadOnly;
  parts: { name: string; box: DOMRectReadOnly }[];
}

async function rowLayouts(page: Page): Promise<RowLayout[]> {
  return page.locator('[data-rule]').evaluateAll((rows) =>
    rows.map((row) => {
      const box = (element: Element) => element.getBoundingClientRect().toJSON() as DOMRectReadOnly;
      const cells = row.querySelectorAll('.night');
      const tonight = cells[cells.length - 1]!;
      return {
        rule: row.getAttribute('data-rule')!,
        cells: cells.length,
        tonightTitle: tonight.getAttribute('title')!,
        tonight: box(tonight),
        strip: box(row.querySelector('.nights')!),
        parts: [...row.children].map((part) => ({ name: part.className, box: box(part) })),
      };
    }),
  );
}

/** Asserts that no part of a rule's row (id, level, state, nights, mark) covers another. */
function expectNoOverlap(row: RowLayout): void {
  for (const [at, part] of row.parts.entries())
    for (const other of row.parts.slice(at + 1))
      expect(overlap(part.box, other.box), `${row.rule}: "${part.name}" and "${other.name}" overlap`).toBe(false);
}

const within = (inner: DOMRectReadOnly, outer: { left: number; right: number }) =>
  inner.left >= outer.left - 0.5 && inner.right <= outer.right + 0.5;
const overlap = (a: DOMRectReadOnly, b: DOMRectReadOnly) =>
  a.width > 0 &&
  b.width > 0 &&
  a.left < b.right - 0.5 &&
  b.left < a.right - 0.5 &&
  a.top < b.bottom - 0.5 &&
  b.top < a.bottom - 0.5;

describe.skipIf(noChromium)(`a month of nights, on a laptop's screen and a phone's, in Chromium`, () => {
  let monthDir: string;
  /** Each rule's state tonight, as conformance.json has it. */
  let tonightStates: Record<string, string>;

  beforeAll(() => {
    // The third night's certificate after the month before it, rather than 30 runs: AUTH-01 passed every earlier
    // night, so tonight, failing, it is the one rule marked changed. Written as a run writes its reports.
    const tonight = readReport(reportsDir);
    tonightStates = Object.fromEntries(tonight.rules.map((rule) => [rule.id, rule.status]));
    monthDir = mkdtempSync(join(tmpdir(), 'zc-page-month-'));
    keepNights(monthDir, earlierNights(nightOf(tonight).target, new Date(tonight.startedAt), STRIP_NIGHTS - 1));
    // Its folder has no Allure results to complete, which writeReports says through `warn`: not this page's concern.
    writeReports(tonight, { reportsDir: monthDir, secrets: new Secrets({ token: TOKEN }), warn: () => undefined });
    expect(readFileSync(join(monthDir, HISTORY_FILE), 'utf8').trim().split('\n')).toHaveLength(STRIP_NIGHTS);
  });

  let monthPage: ReturnType<typeof openFile> | undefined;
  /**
   * The month's page at a screen's size: loaded once, then resized for each screen, which lays it out again as a
   * window of that size would (its media queries answer the new width); every message it gave since is kept.
   */
  async function openMonth(viewport: { width: number; height: number }) {
    monthPage ??= openFile(browser, join(monthDir, 'conformance.html'), viewport);
    const opened = await monthPage;
    await opened.page.setViewportSize(viewport);
    return opened;
  }

  test.for([
    { width: 1280, height: 720 },
    { width: 1440, height: 900 },
  ])(
    "at $width x $height, tonight's cell of every rule is on the screen, inside its strip, beside the rule's other parts",
    async (viewport, { annotate }) => {
      const { page, console } = await openMonth(viewport);
      await page.locator('#grid').waitFor({ state: 'visible' });
      expect(await page.locator('.history').innerText()).toContain(`${STRIP_NIGHTS} nights of this target`);
      for (const row of await rowLayouts(page)) {
        expect(row.cells, row.rule).toBe(STRIP_NIGHTS);
        expect(row.tonightTitle, row.rule).toMatch(new RegExp(`\\(tonight\\): ${tonightStates[row.rule]}$`));
        expect(within(row.tonight, row.strip), `${row.rule}: tonight inside its strip`).toBe(true);
        expect(within(row.tonight, { left: 0, right: viewport.width }), `${row.rule}: tonight inside the window`).toBe(
          true,
        );
        // Shrunk, a cell still shows its colour.
        expect(row.tonight.width, `${row.rule}: tonight's cell is wide enough to see`).toBeGreaterThanOrEqual(3);
        expectNoOverlap(row);
      }
      expect(
        await page
          .locator('[data-changed="true"]')
          .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-rule'))),
      ).toEqual(['AUTH-01']);
      if (viewport.height === 900) {
        await inFirstScreen('the verdict', page.locator('#verdict h1'), 900);
        for (const rule of rules) await inFirstScreen(rule.id, page.locator(`[data-rule="${rule.id}"] .id`), 900);
      }
      await keepScreenshot(page, `certificate-page-month-${viewport.width}x${viewport.height}`, annotate);
      expect(console).toEqual([]);
    },
  );

  test("on a phone's screen, the page does not scroll sideways and no part of a rule's row covers another", async ({
    annotate,
  }) => {
    const viewport = { width: 390, height: 844 };
    const { page, console } = await openMonth(viewport);
    await page.locator('#grid').waitFor({ state: 'visible' });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      'the page is as wide as the phone',
    ).toBeLessThanOrEqual(viewport.width);
    const rows = await rowLayouts(page);
    // One column, in the rules' order: each row below the one before.
    expect(rows.map((row) => row.rule)).toEqual(rules.map((rule) => rule.id));
    for (const [index, row] of rows.entries()) {
      if (index > 0)
        expect(row.strip.top, `${row.rule} is below ${rows[index - 1]!.rule}`).toBeGreaterThanOrEqual(
          rows[index - 1]!.strip.bottom,
        );
      expect(within(row.tonight, row.strip), `${row.rule}: tonight inside its strip`).toBe(true);
      expect(within(row.tonight, { left: 0, right: viewport.width }), `${row.rule}: tonight inside the window`).toBe(
        true,
      );
      expectNoOverlap(row);
    }
    await keepScreenshot(page, 'certificate-page-month-390x844', annotate);
    expect(console).toEqual([]);
  });

  test("drift.html is a page of the same look: on a phone's screen it does not scroll sideways, and every rule shows both states", async ({
    annotate,
  }) => {
    const path = join(monthDir, 'drift.html');
    writeFileSync(path, renderDriftPage(driftFixture()));
    const viewport = { width: 390, height: 844 };
    const { page, console } = await openFile(browser, path, viewport);
    await page.locator('#grid').waitFor({ state: 'visible' });
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      'the page is as wide as the phone',
    ).toBeLessThanOrEqual(viewport.width);
    // The verdict first, in the certificate's colours; then every rule, each with the service's state and the mock's.
    await inFirstScreen('the verdict', page.locator('#verdict h1'), viewport.height);
    const states = await page
      .locator('[data-rule]')
      .evaluateAll((rows) =>
        rows.map((row) => [
          row.getAttribute('data-rule'),
          [...row.querySelectorAll('.state')].map((s) => s.textContent),
        ]),
      );
    expect(states.map(([rule]) => rule)).toEqual(rules.map((rule) => rule.id));
    expect(states.find(([rule]) => rule === 'LIST-02')?.[1]).toEqual(['passed', 'not verified']);
    // Both exchanges of a difference, side by side on a laptop, stacked on a phone; each inside the window.
    const boxes = await page
      .locator('.sides .test')
      .evaluateAll((all) => all.map((box) => box.getBoundingClientRect().right));
    expect(boxes.length).toBe(2);
    for (const right of boxes) expect(right).toBeLessThanOrEqual(viewport.width);
    await keepScreenshot(page, 'drift-page-390x844', annotate);
    // The policy let the page's own style in, and nothing complained.
    expect(console).toEqual([]);
  });
});

/** Markup and a script, as a shop's zone name and error body may carry them. */
const MARKUP = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>';
const SCRIPT_TEXT = '<script>window.__pwned=1</script>';

/** Every zone name in a JSON answer becomes the markup; a refusal for want of a credential carries it too. */
function withMarkup(answer: Answer): Answer {
  if (answer.status === 401)
    return {
      status: 403,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ errors: `${MARKUP} refused` }),
    };
  if (!String(answer.headers['content-type']).includes('json') || answer.body === '') return answer;
  const renamed = JSON.stringify(JSON.parse(answer.body), (key, value) =>
    key === 'name' && typeof value === 'string' ? `${MARKUP} zone` : value,
  );
  return { ...answer, body: renamed };
}

describe.skipIf(noChromium)(`a shop whose answers carry markup and a script, in Chromium`, () => {
  let reference: RunningReference;
  let front: RewritingFront;
  let reportsDir: string;

  beforeAll(async () => {
    reference = await startReference({ token: TOKEN });
    front = await startRewritingFront(reference.url, withMarkup);
    reportsDir = mkdtempSync(join(tmpdir(), 'zc-page-markup-'));
    // Two rules are enough to carry both: CREATE-01 reads the name back, PROFILE-03 reads the refusal.
    const run = await runEntry(
      'bin/conformance.ts',
      ['--rule', 'CREATE-01,PROFILE-03'],
      settingsFor(reference, front.url, reportsDir),
    );
    expect(run.code, run.stderr).toBe(1);
  });

  afterAll(async () => {
    await front?.close();
    await reference?.close();
  });

  test("the markup reached the certificate: a failed create shows the shop's name, a warning its error body", () => {
    // The name the shop answers is not the one sent (CREATE-01, a MUST rule, fails), and its refusal is
    // a 403 where the profile says 401 (PROFILE-03, a SHOULD rule, warns).
    const report = readReport(reportsDir);
    const statusOf = (id: string) => report.rules.find((rule) => rule.id === id)!;
    // The bodies as the shop sent them: JSON, whose strings carry the markup with its quotes escaped.
    const answered = (id: string, text: string) =>
      statusOf(id).tests.some((test) =>
        (test.evidence ?? []).some((record) => record.shown.includes(JSON.stringify(text))),
      );
    expect([statusOf('CREATE-01').status, statusOf('PROFILE-03').status]).toEqual(['failed', 'warning']);
    expect(answered('CREATE-01', `${MARKUP} zone`)).toBe(true);
    expect(answered('PROFILE-03', `${MARKUP} refused`)).toBe(true);
  });

  test('nothing of it runs, no element of it exists, and it reads as text', async () => {
    const { page, console } = await openFile(browser, join(reportsDir, 'conformance.html'));
    await page.locator('#verdict').waitFor();
    // Drill down as a reader would: every exchange opened.
    for (const summary of await page.locator('details > summary').all()) await summary.click();
    expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.locator('script').count()).toBe(0);
    expect(await page.locator('img').count()).toBe(0);
    const text = await page.locator('body').innerText();
    expect(text).toContain(`${SCRIPT_TEXT} zone`);
    expect(text).toContain(`${SCRIPT_TEXT} refused`);
    await page.getByText(SCRIPT_TEXT).first().waitFor({ state: 'visible' });
    expect(console).toEqual([]);
  });

  test("the page's policy stops a script that got past the escaping, which runs without it", async () => {
    const page = readFileSync(join(reportsDir, 'conformance.html'), 'utf8');
    const injected = page.replace('<main>', `<main>${MARKUP}`);
    const withPolicy = join(reportsDir, 'injected.html');
    const withoutPolicy = join(reportsDir, 'injected-without-policy.html');
    writeFileSync(withPolicy, injected);
    writeFileSync(withoutPolicy, injected.replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/, ''));

    const stopped = await openFile(browser, withPolicy);
    await stopped.page.locator('#verdict').waitFor();
    expect(await stopped.page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
    await expect
      .poll(() => stopped.console.some((line) => /Content Security Policy/i.test(line)), { timeout: 120_000 })
      .toBe(true);

    // The control: the same page without its policy runs the script, so the check above can fail.
    const unguarded = await openFile(browser, withoutPolicy);
    await expect
      .poll(() => unguarded.page.evaluate(() => (window as { __pwned?: unknown }).__pwned), { timeout: 120_000 })
      .toBe(1);
  });
});

/** A drift report as drift writes one: every rule, LIST-02 told with a status the mock does not keep, long lines in its bodies. */
function driftFixture(): DriftReport {
  const url = `http://127.0.0.1:38123/admin/api/${SPEC_VERSION}/zones.json?status=draft&fields=id,name,coverage,status`;
  const body = (zone: Record<string, unknown>) => JSON.stringify({ zones: [zone] });
  const zone = {
    id: 1234567890123,
    name: `zc-20261127t120000-abcd-${'long-'.repeat(20)}1`,
    coverage: { countries: ['DE'] },
  };
  const exchange = (shown: Record<string, unknown>) => ({
    line: `GET ${url} -> 200`,
    curl: `curl -sS -H "X-Shopify-Access-Token: $ZONES_ACCESS_TOKEN" '${url}'`,
    request: { method: 'GET' as const, url },
    answer: { status: 200, headers: { 'content-type': 'application/json' }, body: body(shown) },
  });
  return driftReportFixture({
    targets: {
      service: sideRan('service', 'https://staging-shop.example.com', 'conformant', 0),
      mock: sideRan('mock', 'http://127.0.0.1:38123', 'incomplete', 2),
    },
    compared: { tests: 30, steps: 120 },
    differences: [
      {
        operation: 'list',
        operations: ['list', 'create', 'update'],
        aspect: 'shape',
        subject: '<zone>.status',
        case: `LIST-02 a list filtered by status holds exactly the zones in that status, step 3: GET ${url}`,
        service: 'string',
        mock: 'absent',
        count: 61,
        cases: [`LIST-02 a list filtered by status holds exactly the zones in that status, step 3: GET ${url}`],
        exchanges: { service: exchange({ ...zone, status: 'draft' }), mock: exchange(zone) },
        verdicts: [{ rule: 'LIST-02', service: 'passed', mock: 'not-verified' }],
      },
    ],
    rules: rules.map((rule) => ({
      id: rule.id,
      level: rule.level,
      title: rule.title,
      service: 'passed',
      mock: rule.id === 'LIST-02' ? 'not-verified' : 'passed',
    })),
  });
}
