// The certificate page as text, from reports made by hand: what it says in the cases a three-night run
// in Chromium (certificate-page.test.ts) does not meet: a first night, a suite defect, zones left
// behind, a partial run; that its policy names its own style block; and that no token reaches it.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { renderCertificatePage, writeCertificatePage } from '../helpers/report/certificate-page.ts';
import { buildReport, type ConformanceReport } from '../helpers/report/conformance-report.ts';
import { nightOf, type TargetHistory } from '../helpers/report/history.ts';
import { rules } from '../helpers/rules.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';

const TOKEN = 'shpat_selftest_page_render_0123456789';
const MARKUP = '<script>alert(1)</script>';

function reportWith(
  states: Record<string, 'failed' | 'suite-error' | 'not-verified'>,
  reportsDir = 'reports',
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
  return buildReport(facts);
}

const firstNight = (report: ConformanceReport): TargetHistory => ({
  path: 'reports/conformance-history.jsonl',
  nights: [nightOf(report)],
  tonightKept: true,
});

const render = (report: ConformanceReport, history = firstNight(report)) =>
  renderCertificatePage(report, { suiteVersion: '9.9.9', history });

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

  test('as written, holds neither the token nor a tag of the run', () => {
    const reportsDir = mkdtempSync(join(tmpdir(), 'zc-page-render-'));
    const report = reportWith({ 'CREATE-01': 'failed' }, reportsDir);
    const config = readTargetConfig({
      ZONES_BASE_URL: 'https://shop.example',
      ZONES_ACCESS_TOKEN: TOKEN,
      ZONES_REPORTS_DIR: reportsDir,
    });
    const written = readFileSync(writeCertificatePage(report, config, firstNight(report)), 'utf8');
    expect(written).not.toContain(TOKEN);
    expect(written).toContain('&lt;script&gt;alert(1)&lt;/script&gt; with &lt;redacted&gt;');
  });
});
