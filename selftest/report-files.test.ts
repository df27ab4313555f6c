// The certificate and junit.xml say what the verdict says: a SHOULD warning is no failure in either,
// a MUST rule not verified is not a pass, and a version other than the specification's is noted.
import { expect, test } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { buildReport, type RunFacts, renderMarkdown } from '../helpers/report/conformance-report.ts';
import { renderJunit } from '../helpers/report/junit.ts';
import { rules } from '../helpers/rules.ts';
import type { TestOutcome } from '../helpers/runner/verdict.ts';
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
  const warned = renderJunit(buildReport(facts(withWarning)));
  expect(warned).toMatch(/failures="0"/);
  expect(warned).not.toContain('<failure');
  expect(warned).toContain(
    [
      '    <testcase classname="SHOULD.PROFILE-02" name="PROFILE-02 a check" time="0.001">',
      '      <properties>',
      '        <property name="outcome" value="SHOULD warning"/>',
      '      </properties>',
      '      <system-out>WARNING (SHOULD, does not change the verdict): got 200</system-out>',
      '    </testcase>',
    ].join('\n'),
  );
  const withFailure = everyRule().map((o) =>
    o.ruleId === 'LIST-02' ? outcome('LIST-02', 'failed', 'zone 7 answers the filter') : o,
  );
  expect(renderJunit(buildReport(facts(withFailure)))).toMatch(
    /failures="1"[\s\S]*<failure message="zone 7 answers the filter" type="MUST failure">/,
  );
});

test('junit.xml times every testcase and the suite, in seconds, and keeps the verdict out of the names', () => {
  const timed = everyRule().map((o, index) => ({ ...o, durationMs: 1500 + index }));
  const junit = renderJunit(buildReport(facts(timed)));
  const testcases = junit.match(/<testcase [^>]*>/g) ?? [];
  expect(testcases).toHaveLength(rules.length);
  for (const [index, testcase] of testcases.entries())
    expect(testcase).toContain(` time="${((1500 + index) / 1000).toFixed(3)}"`);
  const sum = timed.reduce((total, o) => total + o.durationMs, 0);
  expect(junit).toContain(
    `<testsuite name="Zone Management Service, API version 2026-07" tests="${rules.length}" failures="0" errors="0" skipped="0" time="${(sum / 1000).toFixed(3)}"`,
  );
  // The sample run lasts one second from start to finish.
  expect(junit).toMatch(/<testsuites name="zones-conformance" [^>]* time="1\.000">/);
  expect(junit).toMatch(/<testsuite [^>]*>\n {4}<properties>\n {6}<property name="verdict" value="conformant"\/>/);
  expect(junit).not.toMatch(/name="[^"]*conformant/);
});

test('what the settings made a test check with is a property beside its name, and a line in the certificate', () => {
  const checked = everyRule().map((o) =>
    o.ruleId === 'DELETE-02'
      ? outcome('DELETE-02', 'failed', 'answered 200')
      : o.ruleId === 'LIST-01'
        ? { ...o, checkedWith: ['page size 2'] }
        : o,
  );
  checked.find((o) => o.ruleId === 'DELETE-02')!.checkedWith = ['the booked zone 17 (ZONES_BOOKED_ZONE_ID)'];
  const report = buildReport(facts(checked));
  expect(renderJunit(report)).toContain(
    [
      '    <testcase classname="MUST.DELETE-02" name="DELETE-02 a check" time="0.001">',
      '      <properties>',
      '        <property name="outcome" value="MUST failure"/>',
      '        <property name="checked with" value="the booked zone 17 (ZONES_BOOKED_ZONE_ID)"/>',
      '      </properties>',
    ].join('\n'),
  );
  expect(renderJunit(report)).toContain('<property name="checked with" value="page size 2"/>');
  expect(renderMarkdown(report)).toContain(
    '- DELETE-02 a check: FAILED\n\n  Checked with: the booked zone 17 (ZONES_BOOKED_ZONE_ID)\n',
  );
  // A test that passed is not shown in detail, but what it was checked with is.
  expect(renderMarkdown(report)).toContain(
    '## Checked with what the settings gave\n\n- LIST-01 a check: page size 2\n- DELETE-02 a check: the booked zone 17 (ZONES_BOOKED_ZONE_ID)\n\n',
  );
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
