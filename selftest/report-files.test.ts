// The certificate, junit.xml and the console say what the verdict says: a SHOULD or MAY warning is
// no failure in any of them, a MUST rule not verified is not a pass, and a version other than the
// specification's is noted.
import { expect, test, vi } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import type { TestOutcome } from '../helpers/judging/verdict.ts';
import { buildReport, type RunFacts, renderMarkdown } from '../helpers/report/conformance-report.ts';
import { printOutcome, printSummary } from '../helpers/report/console-output.ts';
import { renderJunit } from '../helpers/report/junit.ts';
import { rules } from '../helpers/rules.ts';
import { withRunSeed } from '../helpers/runner/certify.ts';
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

test('a MAY miss reads as a SHOULD warning does, labelled MAY, in every report, and the run stays conformant', () => {
  const warned = everyRule().map((o) =>
    o.ruleId === 'PROFILE-02'
      ? outcome('PROFILE-02', 'failed', 'got 200')
      : o.ruleId === 'ROBUST-05'
        ? outcome('ROBUST-05', 'failed', 'got 500 for an unknown status')
        : o,
  );
  const report = buildReport(facts(warned));
  expect([report.verdict, report.exitCode]).toEqual(['conformant', 0]);
  expect(report.summary).toMatchObject({
    must: { passed: 18, failed: 0, notVerified: 0 },
    should: { passed: 2, warnings: 1, notVerified: 0 },
    may: { passed: 6, warnings: 1, notVerified: 0 },
  });
  const judged = (id: string) => report.rules.find((r) => r.id === id);
  expect(judged('PROFILE-02')).toMatchObject({ level: 'should', status: 'warning', tests: [{ state: 'warning' }] });
  expect(judged('ROBUST-05')).toMatchObject({ level: 'may', status: 'warning', tests: [{ state: 'warning' }] });

  const markdown = renderMarkdown(report);
  expect(markdown).toContain('| SHOULD rules | 2 passed, 1 warnings, 0 not verified |');
  expect(markdown).toContain('| MAY rules (robustness) | 6 passed, 1 warnings, 0 not verified |');
  expect(markdown).toContain('| PROFILE-02 | SHOULD | WARNING (SHOULD) | success codes follow the profile |');
  expect(markdown).toContain(`| ROBUST-05 | MAY | WARNING (MAY) | ${judged('ROBUST-05')!.title} |`);
  for (const [id, level, reason] of [
    ['PROFILE-02', 'SHOULD', 'got 200'],
    ['ROBUST-05', 'MAY', 'got 500 for an unknown status'],
  ])
    expect(markdown).toContain(
      `### ${id} WARNING (${level})\n\n${judged(id!)!.title}\n\n- ${id} a check: WARNING (${level}, does not change the verdict)\n\n\`\`\`\n${reason}\n\`\`\`\n`,
    );
  expect(markdown).not.toMatch(/FAILED/);

  const junit = renderJunit(report);
  expect(junit).toMatch(/failures="0"/);
  expect(junit).not.toContain('<failure');
  expect(junit).toContain('<property name="MAY rules" value="6 passed, 1 warnings, 0 not verified"/>');
  expect(junit).toContain(
    [
      '    <testcase classname="MAY.ROBUST-05" name="ROBUST-05 a check" time="0.001">',
      '      <properties>',
      '        <property name="outcome" value="MAY warning"/>',
      '      </properties>',
      '      <system-out>WARNING (MAY, does not change the verdict): got 500 for an unknown status</system-out>',
      '    </testcase>',
    ].join('\n'),
  );

  const printed = [
    ...printedSummary(report),
    ...printedBy(() => {
      for (const o of warned.filter((o) => o.state === 'failed')) printOutcome(o);
    }),
  ];
  expect(printed).toContain('WARNING PROFILE-02 success codes follow the profile');
  expect(printed).toContain(`WARNING ROBUST-05 ${judged('ROBUST-05')!.title}`);
  expect(printed.join('\n')).toMatch(/verdict: CONFORMANT .*; SHOULD 1 warning\(s\); MAY 1 warning\(s\)/);
  expect(printed.join('\n')).toContain('(exit code 0)');
  expect(printed).toEqual(expect.arrayContaining(['  warn  PROFILE-02 a check', '  warn  ROBUST-05 a check']));
  expect(printed.join('\n')).not.toMatch(/FAIL/);
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

/** What `print` writes to the console, line by line. */
function printedBy(print: () => void): string[] {
  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void printed.push(line));
  try {
    print();
  } finally {
    log.mockRestore();
  }
  return printed;
}

/** What printSummary prints, line by line. */
function printedSummary(report: ReturnType<typeof buildReport>): string[] {
  return printedBy(() =>
    printSummary(
      report,
      { json: 'conformance.json', markdown: 'conformance.md' },
      new Secrets({ token: 'secret-token' }),
    ),
  );
}

test('every report names the seed a run drew, with the command that replays it', () => {
  const drawn = sampleRunFacts(withRunSeed(facts(everyRule()).config), everyRule());
  const seed = drawn.config.model.seed!;
  const replay = `npm run conformance -- --seed=${seed}`;
  const report = buildReport(drawn);
  expect(report.model).toEqual({ seed, drawn: true, replay });
  expect(JSON.parse(JSON.stringify(report)).model).toEqual({ seed, drawn: true, replay });
  expect(renderMarkdown(report)).toContain(
    `| Model-based seed | ${seed} (drawn for this run); replay: \`${replay}\` |`,
  );
  expect(printedSummary(report)).toContain(`model-based seed ${seed} (drawn for this run); replay: ${replay}`);
});

test('a seed the settings set is named as set, negative ones in the form the launcher reads', () => {
  const report = buildReport(facts(everyRule(), { ZONES_MODEL_SEED: '-1311814496' }));
  expect(report.model).toEqual({
    seed: -1311814496,
    drawn: false,
    replay: 'npm run conformance -- --seed=-1311814496',
  });
  expect(printedSummary(report)).toContain(
    'model-based seed -1311814496 (set by ZONES_MODEL_SEED or --seed); replay: npm run conformance -- --seed=-1311814496',
  );
  // With the model-based suite left out there is no seed to name.
  const without = buildReport(facts(everyRule(), { ZONES_MODEL_RUNS: '0', ZONES_MODEL_SEED: '5' }));
  expect(without.model).toBeUndefined();
  expect(renderMarkdown(without)).not.toContain('Model-based seed');
});

test('a model-based test that did not reach a rule its example tests verified is a note, in every report', () => {
  const why = 'no model-based sequence reached a check of UPDATE-04 this run (3 sequence(s), 120 requests, seed 7)';
  const modelTest = sampleOutcome('UPDATE-04 a rule: sequences of operations agree with the model', 'not-verified', {
    reason: why,
    requests: 0,
    sharesRun: true,
  });
  const report = buildReport(facts([...everyRule(), modelTest]));
  const note = `model-based test not verified: ${why}`;
  expect(report.rules.find((r) => r.id === 'UPDATE-04')).toMatchObject({ status: 'passed', notes: [note] });
  expect([report.verdict, report.summary.must.notVerified]).toEqual(['conformant', 0]);
  expect(renderMarkdown(report)).toContain(`## Notes\n\n- UPDATE-04: ${note}\n`);
  expect(renderMarkdown(report)).toContain('| UPDATE-04 | MUST | passed |');
  expect(printedSummary(report)).toContain(`NOTE UPDATE-04: ${note}`);
});
