// The certificate page as text, from reports made by hand: what it says in the cases a three-night run
// in Chromium (certificate-page.test.ts) does not meet: a first night, a suite defect, zones left
// behind, a partial run, a stopped run, many changes, a history that could not be written or had lines
// it could not read; that its policy names its own style block; and that no token reaches it.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { renderCertificatePage } from '../helpers/report/certificate-page.ts';
import { buildReport, type RunFacts } from '../helpers/report/conformance-report.ts';
import { type Night, nightOf, type TargetHistory } from '../helpers/report/history.ts';
import { writeReports } from '../helpers/report/write-reports.ts';
import { rules } from '../helpers/rules.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';

const TOKEN = 'shpat_selftest_page_render_0123456789';
const MARKUP = '<script>alert(1)</script>';

function reportWith(
  states: Record<string, 'failed' | 'suite-error' | 'not-verified'>,
  reportsDir = 'reports',
  launcher: Pick<RunFacts, 'stoppedBy'> = {},
): ConformanceReport {
  const config = readTargetConfig({
    ZONES_BASE_URL: 'https://shop.example',
    ZONES_ACCESS_TOKEN: TOKEN,
    ZONES_REPORTS_DIR: reportsDir,
  });
  const outcomes = rules.map((rule) =>
    sampleOutcome(`${rule.id} ${rule.title}`, states[rule.id] ?? 'passed', {
      reason: states[rule.id] && `${MARKUP} with ${TOKEN}`,
    }),
  );
  const facts = sampleRunFacts(config, outcomes);
  facts.cleanup.leftBehind = [
    { id: '42', name: `zone ${MARKUP}`, reason: 'DELETE answered 409', removeWith: 'npm run sweep -- --yes' },
  ];
  return buildReport({ ...facts, ...launcher });
}

const firstNight = (report: ConformanceReport): TargetHistory => ({
  path: 'reports/conformance-history.jsonl',
  nights: [nightOf(report)],
  tonightKept: true,
});

const render = (report: ConformanceReport, history = firstNight(report)) =>
  renderCertificatePage(report, '9.9.9', history);

/** An earlier night of the report's shop, every rule passed but those given. */
function earlierNight(report: ConformanceReport, runId: string, states: Record<string, 'failed'> = {}): Night {
  return {
    ...nightOf(report),
    runId,
    startedAt: '2026-11-21T02:00:00.000Z',
    verdict: 'conformant',
    rules: Object.fromEntries(rules.map((rule) => [rule.id, states[rule.id] ?? 'passed'])),
    suiteDefects: [],
  };
}

/** The history line above the grid, as text. */
const historyText = (page: string) => page.match(/<p class="history">([\s\S]*?)<\/p>/)![1]!;

describe('the certificate page', () => {
  test('says it is the first night, and where the history is kept', () => {
    const page = render(reportWith({}));
    expect(page).toContain(
      'First night of this target in reports/conformance-history.jsonl: there is no earlier night to compare with',
    );
    expect(page).toContain('<b>Suite</b> zones-conformance 9.9.9');
    expect(page).toContain('<h1>CONFORMANT</h1>');
  });

  test('quotes the specification beside a failed rule, and says a profile rule is not in it', () => {
    const page = render(reportWith({ 'AUTH-01': 'failed', 'PROFILE-03': 'failed' }));
    const section = (id: string) =>
      page.slice(page.indexOf(`id="detail-${id}"`), page.indexOf('</section>', page.indexOf(`id="detail-${id}"`)));
    // Authentication 1 and Errors 2, in the specification's words (docs/zone-service-2026-07.md).
    expect(section('AUTH-01')).toContain(
      'Every endpoint requires authentication; a request without it is not a valid call.',
    );
    expect(section('AUTH-01')).toContain('<footer>Errors 2</footer>');
    expect(section('PROFILE-03')).toContain("Not in the specification: the default profile's convention");
    expect(section('PROFILE-03')).not.toContain('<blockquote');
  });

  test('shows a rule not verified through a suite error as a suite defect, its json status kept', () => {
    const page = render(reportWith({ 'LIST-02': 'suite-error', 'LIST-01': 'not-verified' }));
    expect(page).toMatch(
      /data-rule="LIST-02" data-status="not-verified"[^>]*>\s*<a[^>]*>LIST-02<\/a>.*<span class="state">suite defect</,
    );
    expect(page).toMatch(
      /data-rule="LIST-01" data-status="not-verified"[^>]*>\s*<a[^>]*>LIST-01<\/a>.*<span class="state">not verified</,
    );
  });

  test('escapes every text of the run: no tag of it is left, the characters are', () => {
    const page = render(reportWith({ 'CREATE-01': 'failed' }));
    expect(page).not.toMatch(/<script/i);
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt; with');
    expect(page).toContain('<code>zone &lt;script&gt;alert(1)&lt;/script&gt;</code>: DELETE answered 409');
    expect(page).toContain('Delete it with the run&#39;s settings: <code>npm run sweep -- --yes</code>');
  });

  test('names, in its policy, the hash of exactly its own style block, and allows no script', () => {
    const page = render(reportWith({}));
    const style = page.match(/<style>([\s\S]*?)<\/style>/)![1]!;
    const hash = createHash('sha256').update(style, 'utf8').digest('base64');
    const policy = page.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/)![1];
    expect(policy).toBe(
      `default-src 'none'; style-src 'sha256-${hash}'; img-src data:; base-uri 'none'; form-action 'none'`,
    );
    expect(page.match(/<style>/g)).toHaveLength(1);
    expect(page).not.toMatch(/ style="/);
  });

  test('of a partial run, marks the rules left out as not selected and says tonight is not kept', () => {
    const report = reportWith({});
    report.selection = { rule: 'AUTH', rules: rules.filter((r) => r.id.startsWith('AUTH-')).map((r) => r.id) };
    const page = render(report, { path: 'reports/conformance-history.jsonl', nights: [], tonightKept: false });
    expect(page).toMatch(/data-rule="LIST-01"[^>]*>[\s\S]*?<span class="state">not selected</);
    expect(page).toContain('tonight is not kept there: a partial run (--rule AUTH) does not judge the shop as a whole');
  });

  test("of a partial run, shows tonight's night of a rule left out as not selected, not as not verified", () => {
    const report = reportWith({});
    report.selection = { rule: 'AUTH', rules: rules.filter((r) => r.id.startsWith('AUTH-')).map((r) => r.id) };
    // A rule left out is not verified in the json: its tests did not run.
    for (const rule of report.rules) if (!report.selection.rules.includes(rule.id)) rule.status = 'not-verified';
    const history = { path: 'reports/h.jsonl', nights: [earlierNight(report, 'run-1')], tonightKept: false };
    const page = render(report, history);
    const cells = (id: string) =>
      page.match(new RegExp(`data-rule="${id}"[\\s\\S]*?<span class="nights">(.*?)</span>\\n`))![1]!;
    expect(cells('LIST-01')).toMatch(
      /<span class="night s-passed"[^>]*>✓<\/span><span class="night s-not-selected" title="[^"]*\(tonight\): not selected">·<\/span>$/,
    );
    expect(cells('AUTH-01')).toMatch(/<span class="night s-passed" title="[^"]*\(tonight\): passed">✓<\/span>$/);
    expect(page).toContain('<span class="night s-not-selected">·</span>not selected tonight');
  });

  test('of a run stopped by a signal, says so on the first screen with the exit code the process left with', () => {
    const report = reportWith({}, 'reports', { stoppedBy: 'SIGTERM' });
    const page = render(report, { path: 'reports/h.jsonl', nights: [], tonightKept: false });
    const firstScreen = page.slice(0, page.indexOf('<div class="grid"'));
    expect(firstScreen).toContain(
      '<p class="alert">The run was stopped by SIGTERM before every test had run; exit code 143.</p>',
    );
    expect(firstScreen).toMatch(/<header class="verdict[\s\S]*Exit code 143, stopped by SIGTERM\./);
    expect(historyText(page)).toContain(
      'tonight is not kept there: a run stopped before every test had run does not judge the shop as a whole',
    );
  });

  test('of a run the shop went away from, says why tonight is not kept', () => {
    const report = reportWith({});
    report.verdict = 'could-not-complete';
    const page = render(report, {
      path: 'reports/h.jsonl',
      nights: [earlierNight(report, 'run-1')],
      tonightKept: false,
    });
    expect(historyText(page)).toContain(
      '1 earlier night(s) of this target in reports/h.jsonl; tonight is not kept there: a run the shop went away from partway gave no verdict on it.',
    );
  });

  test('names up to five changes since the night before; past five, counts them and points to the marks', () => {
    const five = ['AUTH-01', 'CREATE-01', 'CREATE-02', 'LIST-01', 'UPDATE-01'];
    const report = reportWith(Object.fromEntries(five.map((id) => [id, 'failed' as const])));
    const history = (tonight: ConformanceReport): TargetHistory => ({
      path: 'reports/h.jsonl',
      nights: [earlierNight(tonight, 'run-1'), nightOf(tonight)],
      tonightKept: true,
    });
    expect(historyText(render(report, history(report)))).toContain(
      `Changed since the night of 2026-11-21 02:00 UTC: ${five.map((id) => `${id} (passed → failed)`).join(', ')}.`,
    );
    const six = reportWith(Object.fromEntries([...five, 'DELETE-01'].map((id) => [id, 'failed' as const])));
    const page = render(six, history(six));
    expect(historyText(page)).toContain('6 rules changed since the night of 2026-11-21 02:00 UTC; each is marked ▲.');
    expect(historyText(page)).not.toContain('passed → failed');
    expect(page.match(/data-changed="true"/g)).toHaveLength(6);
  });

  test('of a history it could not write, still shows the earlier nights, and counts the lines it could not read', () => {
    const report = reportWith({ 'AUTH-01': 'failed' });
    const history: TargetHistory = {
      path: 'reports/h.jsonl',
      nights: [
        earlierNight(report, 'run-1'),
        { ...earlierNight(report, 'run-2'), startedAt: '2026-11-22T02:00:00.000Z' },
      ],
      tonightKept: false,
      unreadable: 2,
      problem: { during: 'writing', message: 'EROFS: read-only file system' },
    };
    const page = render(report, history);
    expect(
      page.match(/data-rule="AUTH-01"[\s\S]*?<span class="nights">(.*?)<\/span>\n/)![1]!.match(/class="night /g),
    ).toHaveLength(3);
    expect(historyText(page)).toBe(
      '2 earlier night(s) of this target in reports/h.jsonl; tonight is not kept there: the file could not be written (EROFS: read-only file system). 2 unreadable lines skipped. Changed since the night of 2026-11-22 02:00 UTC: AUTH-01 (passed → failed).',
    );
  });

  test('puts the command that deletes the zones left behind before their list', () => {
    const page = render(reportWith({}));
    const box = page.slice(
      page.indexOf('<section class="leftovers"'),
      page.indexOf('</section>', page.indexOf('<section class="leftovers"')),
    );
    expect(box.indexOf('npm run sweep -- --yes')).toBeGreaterThan(0);
    expect(box.indexOf('npm run sweep -- --yes')).toBeLessThan(box.indexOf('<ul>'));
  });

  test('as written, holds neither the token nor a tag of the run', () => {
    const reportsDir = mkdtempSync(join(tmpdir(), 'zc-page-render-'));
    const report = reportWith({ 'CREATE-01': 'failed' }, reportsDir);
    const config = readTargetConfig({
      ZONES_BASE_URL: 'https://shop.example',
      ZONES_ACCESS_TOKEN: TOKEN,
      ZONES_REPORTS_DIR: reportsDir,
    });
    const { page } = writeReports(report, { reportsDir, secrets: new Secrets(config), warn: () => {} });
    const written = readFileSync(page, 'utf8');
    expect(written).not.toContain(TOKEN);
    expect(written).toContain('&lt;script&gt;alert(1)&lt;/script&gt; with &lt;redacted&gt;');
  });
});
