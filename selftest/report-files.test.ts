// The certificate, junit.xml and the console say what the verdict says: a SHOULD or MAY warning is
// no failure in any of them, a MUST rule not verified is not a pass, and a version other than the
// specification's is noted.
import { expect, test, vi } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { buildReport, type RunFacts, renderMarkdown } from '../helpers/report/conformance-report.ts';
import { printOutcome, printSummary } from '../helpers/report/console-output.ts';
import { renderJunit } from '../helpers/report/junit.ts';
import { rules } from '../helpers/rules.ts';
import type { TestOutcome } from '../helpers/runner/verdict.ts';
import { Secrets } from '../helpers/target/secrets.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';

const outcome = (ruleId: string, state: TestOutcome['state'], reason?: string): TestOutcome =>
  sampleOutcome(`${ruleId} a check`, state, { reason, requests: 2, exchanges: ['GET http://shop/x -> 200'] });

function facts(outcomes: TestOutcome[], env: Record<string, string> = {}): RunFacts {
  return sampleRunFacts(
    readTargetConfig({
      ZONES_BASE_URL: 'https://shop.example',
      ZONES_ACCESS_TOKEN: 'secret-token',
      ZONES_BOOKING_HOOK: 'book --key=hook-secret',
      ...env,
    }),
    outcomes,
  );
}

const everyRule = (state: TestOutcome['state'] = 'passed') => rules.map((rule) => outcome(rule.id, state));

test('a SHOULD warning is no junit failure, a MUST failure is', () => {
  const withWarning = everyRule().map((o) =>
    o.ruleId === 'PROFILE-02' ? outcome('PROFILE-02', 'failed', 'got 200') : o,
  );
  expect(renderJunit(buildReport(facts(withWarning)))).toMatch(/failures="0"[\s\S]*WARNING \(SHOULD/);
  const withFailure = everyRule().map((o) =>
    o.ruleId === 'LIST-02' ? outcome('LIST-02', 'failed', 'zone 7 answers the filter') : o,
  );
  expect(renderJunit(buildReport(facts(withFailure)))).toMatch(
    /failures="1"[\s\S]*<failure message="zone 7 answers the filter">/,
  );
});

test('a MAY miss is a warning in every report, distinct from a MUST failure, and the run stays conformant', () => {
  const withMiss = everyRule().map((o) =>
    o.ruleId === 'ROBUST-05' ? outcome('ROBUST-05', 'failed', 'got 500 for an unknown status') : o,
  );
  const report = buildReport(facts(withMiss));
  expect([report.verdict, report.exitCode]).toEqual(['conformant', 0]);
  expect(report.summary.may).toEqual({ passed: 6, failed: 1, notVerified: 0 });
  expect(report.summary.must.failed).toBe(0);
  expect(report.rules.find((r) => r.id === 'ROBUST-05')).toMatchObject({ level: 'may', status: 'failed' });

  const markdown = renderMarkdown(report);
  expect(markdown).toContain('| MAY rules (robustness) | 6 passed, 1 warnings, 0 not verified |');
  expect(markdown).toMatch(/\| ROBUST-05 \| MAY \| warning \|/);
  expect(markdown).toMatch(/### ROBUST-05 WARNING, does not change the verdict \(MAY\)/);
  expect(markdown).not.toMatch(/FAILED/);

  const junit = renderJunit(report);
  expect(junit).toMatch(/failures="0"/);
  expect(junit).toMatch(
    /classname="MAY\.ROBUST-05"[^\n]*>\n\s*<system-out>WARNING \(MAY, does not change the verdict\): got 500/,
  );

  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  try {
    printSummary(
      report,
      { json: 'conformance.json', markdown: 'conformance.md' },
      new Secrets({ token: 'secret-token' }),
    );
    printOutcome(withMiss.find((o) => o.ruleId === 'ROBUST-05')!);
  } finally {
    log.mockRestore();
  }
  expect(printed).toContain(
    'WARNING ROBUST-05 an unknown status in the filter is refused with a 4xx or gives an empty list, never a 5xx',
  );
  expect(printed.join('\n')).toMatch(/verdict: CONFORMANT .*MAY 1 warning\(s\)/);
  expect(printed.join('\n')).toContain('(exit code 0)');
  expect(printed).toContain('  warn  ROBUST-05 a check');
});

test('a MUST rule not verified is a junit skip with its reason', () => {
  const open = everyRule().map((o) =>
    o.ruleId === 'DELETE-02' ? outcome('DELETE-02', 'not-verified', 'no booking fixture') : o,
  );
  expect(renderJunit(buildReport(facts(open)))).toMatch(/skipped="1"[\s\S]*not verified: no booking fixture/);
});

test('neither the token nor the hook commands appear in the report', () => {
  const report = buildReport(facts(everyRule()));
  const text = JSON.stringify(report) + renderMarkdown(report);
  expect(text).not.toContain('secret-token');
  expect(text).not.toContain('hook-secret');
});

test("a version segment other than the specification's is noted on the certificate", () => {
  const report = buildReport(facts(everyRule(), { ZONES_API_VERSION: '2025-01' }));
  expect(report.specification).toContain('2026-07');
  expect(report.notes).toEqual([expect.stringContaining('2025-01')]);
  expect(renderMarkdown(report)).toMatch(/## Notes\n\n- checked at version segment 2025-01/);
});
