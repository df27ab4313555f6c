// Reports stay readable and small whatever a shop accepts: a body past 8 KiB is shown cut, with its size
// and hash, and kept whole once, masked, in reports/bodies/; the curl command sends that file; the job
// summary keeps the verdict, the rules and the zones left behind, and cuts only the detail between them.
// Here on the functions that cut, keep and summarise; what a real run of such a shop writes (its 1 MiB
// body, its reports' sizes, its curl command run as printed) is checked in leftovers, on its run.
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { settingsForStyle } from '../bin/reference-settings.ts';
import { readTargetConfig } from '../helpers/config.ts';
import { BodyFiles, cutBody, SHOWN_BODY_BYTES, shownBody } from '../helpers/evidence/bounded-body.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import { buildReport, markdownParts, renderMarkdown } from '../helpers/report/conformance-report.ts';
import { renderJobSummary, SUMMARY_MAX_BYTES } from '../helpers/report/job-summary.ts';
import { rules } from '../helpers/rules.ts';
import { concludeTarget, newRunId, prepareTarget } from '../helpers/runner/certify.ts';
import { startReference } from '../reference/server.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';

const TOKEN = 'shpat_selftest_bounded_reports_0123456789';
const LEFT_BEHIND = /\*\*Zones left behind: \d+\.\*\*/;

const sha256Of = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

describe('a body too long to show', () => {
  test('is shown as its first 8 KiB, never half a character, with its size and hash', () => {
    // Two bytes a character, so that the limit falls inside one.
    const text = `x${'é'.repeat(SHOWN_BODY_BYTES)}`;
    const cut = cutBody(text)!;
    expect(Buffer.byteLength(cut.head)).toBe(SHOWN_BODY_BYTES - 1);
    expect(text.startsWith(cut.head)).toBe(true);
    expect(cut).toMatchObject({ bytes: Buffer.byteLength(text), sha256: sha256Of(text).slice(0, 12) });
    expect(shownBody(text)).toBe(
      `${cut.head}\n[cut: the first 8 KiB of ${cut.bytes} bytes shown; sha256 ${cut.sha256}; the whole body is bodies/${cut.sha256}.txt in the reports folder]`,
    );
    const fits = 'y'.repeat(SHOWN_BODY_BYTES);
    expect(cutBody(fits)).toBeUndefined();
    expect(shownBody(fits)).toBe(fits);
  });

  test('is kept whole in the reports folder, masked, in a file named by its hash', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zc-bodies-'));
    const bodies = new BodyFiles(dir, new Secrets({ token: TOKEN, authHeader: 'X-Shopify-Access-Token' }));
    const kept = bodies.keep(`{"echo":"${TOKEN}","pad":"${' '.repeat(20_000)}"}`);
    const whole = readFileSync(kept.path!, 'utf8');
    expect(whole).not.toContain(TOKEN);
    expect(whole).toContain('"echo":"<redacted>"');
    expect(kept.text).toBe(whole);
    expect(relative(dir, kept.path!)).toBe(`bodies/${sha256Of(whole).slice(0, 12)}.txt`);
    expect(bodies.keep('{"short":true}')).toEqual({ text: '{"short":true}' });
  });

  test('past the cap in files or bytes is not kept whole, but for a request body; the first ones stay', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zc-bodies-'));
    const secrets = new Secrets({ token: TOKEN, authHeader: 'X-Shopify-Access-Token' });
    const long = (n: number) => `${n}`.repeat(SHOWN_BODY_BYTES + 1);
    const byCount = new BodyFiles(dir, secrets, { files: 2, bytes: 1024 * 1024 });
    const kept = [1, 2, 3, 1].map((n) => byCount.keep(long(n)).path);
    expect(kept.map((path) => path !== undefined)).toEqual([true, true, false, true]);
    expect(byCount.keep(long(4), true).path, 'a request body past the cap').toBeDefined();
    const byBytes = new BodyFiles(mkdtempSync(join(tmpdir(), 'zc-bodies-')), secrets, { files: 10, bytes: 12_000 });
    expect(byBytes.keep(long(5)).path).toBeDefined();
    expect(byBytes.keep(long(6)).path, 'past 12,000 bytes').toBeUndefined();
    expect(readdirSync(join(dir, 'bodies')).filter((name) => name.endsWith('.txt'))).toHaveLength(3);
  });

  test("a run past the cap says in the certificate's notes how many bodies were not kept whole", async () => {
    const shop = await startReference({ token: TOKEN });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'zc-bodies-'));
      const config = readTargetConfig({ ...settingsForStyle(shop.style, shop.url, TOKEN), ZONES_REPORTS_DIR: dir });
      const bodies = new BodyFiles(dir, new Secrets(config), { files: 1, bytes: 1024 * 1024 });
      // Three bodies, the last answered twice: one kept, two not.
      for (const n of [1, 2, 3, 3]) bodies.keep(`${n}`.repeat(SHOWN_BODY_BYTES + 1));
      const runId = newRunId();
      const target = await prepareTarget({ name: 'target', config }, { runId });
      const report = await concludeTarget(
        target,
        { outcomes: new Map(), errors: [] },
        { runId, startedAt: new Date() },
      );
      expect(report.notes).toContain(
        '2 more bodies over 8 KiB not kept whole: the cap of 200 files and 50 MiB in bodies/ was reached, so the file a cut body names may not be there',
      );
      expect(renderMarkdown(report)).toContain('- 2 more bodies over 8 KiB not kept whole');
    } finally {
      await shop.close();
    }
  });
});

describe('the job summary of a certificate too long for it', () => {
  test('keeps the verdict, the zones left behind and every rule, and cuts the detail between sections', () => {
    const config = readTargetConfig({ ZONES_BASE_URL: 'https://shop.example', ZONES_ACCESS_TOKEN: TOKEN });
    // Three hundred failed tests, each with two 8 KiB exchanges: some 5 MB of detail.
    const record = {
      line: 'POST https://shop.example/zones.json [valid] -> 201',
      shown: 'z'.repeat(8 * 1024),
      curl: 'curl',
    };
    const outcomes = rules.map((rule) => sampleOutcome(`${rule.id} ${rule.title}`, 'passed'));
    for (let n = 0; n < 300; n++)
      outcomes.push(
        sampleOutcome(`CREATE-01 case ${n}`, 'failed', { reason: `case ${n} failed`, evidence: [record, record] }),
      );
    const facts = sampleRunFacts(config, outcomes);
    facts.cleanup.leftBehind = [
      { id: '42', name: 'zc-left', reason: 'DELETE answered 409', removeWith: 'npm run sweep -- --yes' },
    ];
    const report = buildReport(facts);

    const whole = renderMarkdown(report);
    const summary = renderJobSummary(report);
    expect(Buffer.byteLength(whole)).toBeGreaterThan(4 * SUMMARY_MAX_BYTES);
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(SUMMARY_MAX_BYTES);
    expect(summary).toMatch(/^# Conformance certificate: NON-CONFORMANT\n/);
    expect(summary).toMatch(LEFT_BEHIND);
    for (const rule of rules) expect(summary).toMatch(new RegExp(`^\\| ${rule.id} \\| `, 'm'));
    expect(summary).toContain('| CREATE-01 | MUST | **FAILED** |');
    // What it shows of the detail is conformance.md's, up to the end of a section; the zones left
    // behind come last, after the cut, whole.
    const [shown, note] = summary.split('\n*The job summary stops here, at 512 KiB: ');
    const detailShown = shown!.slice(shown!.indexOf('## What broke, warned or could not be checked'));
    expect(whole).toContain(detailShown);
    expect(shown).toContain('- CREATE-01 case 0: FAILED');
    expect(shown).not.toContain('- CREATE-01 case 299: FAILED');
    expect(note).toMatch(
      /^\d+ more section\(s\) of detail are in conformance\.md, in the reports artifact\.\*\n\n\*\*Zones left behind: 1\.\*\*/,
    );
  });

  test('holds every section of the certificate after the answer when that fits', () => {
    const config = readTargetConfig({ ZONES_BASE_URL: 'https://shop.example', ZONES_ACCESS_TOKEN: TOKEN });
    const report = buildReport(sampleRunFacts(config, [sampleOutcome('CREATE-01 x', 'failed', { reason: 'no' })]));
    const summary = renderJobSummary(report);
    expect(summary).not.toContain('The job summary stops here');
    for (const block of markdownParts(report).detail) expect(summary).toContain(block.join('\n'));
  });
});
