// junit.xml for CI dashboards, written from the verdict rather than from vitest: a MUST failure is a
// failure, a SHOULD or MAY warning a passed testcase that says WARNING and its level in its output
// (CI tools count every <failure> as red, and none has a warning state), a rule not verified a skip
// with its reason, and a suite defect an error. Each testcase names its outcome in a property too,
// for tools that read them. Names stay the same whatever the settings, so that CI tools keep each
// test's history; the verdict and the run go into the suite's properties. The exit code and
// conformance.json stay the authority.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { operatorVariable } from '../evidence/operator-variables.ts';
import { Secrets } from '../evidence/secrets.ts';
import { testLook, warningPrefix } from '../judging/states.ts';
import type { JudgedTest } from '../judging/verdict.ts';
import type { RuleLevel } from '../rules.ts';
import type { ConformanceReport } from './certificate.ts';
import { leftoverProperties } from './leftovers.ts';

export function xml(text: string): string {
  return (
    text
      .replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!)
      // Characters XML 1.0 cannot hold at all.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are exactly what must go.
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}

/** Seconds, as JUnit's time attributes have them. */
function seconds(ms: number): string {
  return (Math.max(0, ms) / 1000).toFixed(3);
}

function properties(entries: [string, string | undefined][], indent: string): string[] {
  const present = entries.filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (present.length === 0) return [];
  return [
    `${indent}<properties>`,
    ...present.map(([name, value]) => `${indent}  <property name="${xml(name)}" value="${xml(value)}"/>`),
    `${indent}</properties>`,
  ];
}

const firstLine = (text: string | undefined) => (text ?? '').split('\n')[0]!;

/** The test's exchanges in order, each with its curl command: what a reader replays. */
function evidenceText(test: JudgedTest, token: string): string {
  const evidence = test.evidence ?? [];
  if (evidence.length === 0) return '';
  const each = evidence.map((record, index) => `${index + 1}. ${record.shown}\n$ ${record.curl}`);
  return `Every exchange of the test, in order; the curl commands read the credential from ${token}:\n\n${each.join('\n\n')}`;
}

function testcase(level: RuleLevel, classname: string, test: JudgedTest, token: string): string {
  const open = `    <testcase classname="${xml(classname)}" name="${xml(test.title)}" time="${seconds(test.durationMs)}">`;
  const look = testLook(test.state);
  const outcome = look.filedAs.outcome(level);
  const inner = properties(
    [
      ['outcome', outcome],
      ['checked with', test.checkedWith?.join('; ')],
    ],
    '      ',
  );
  const reason = test.reason ?? '';
  const type = xml(outcome ?? '');
  // JUnit's order: the outcome's element first, then the output.
  if (look.filedAs.junit === 'failure')
    inner.push(`      <failure message="${xml(firstLine(reason))}" type="${type}">${xml(reason)}</failure>`);
  if (look.filedAs.junit === 'error')
    inner.push(`      <error message="${look.words}" type="${type}">${xml(reason)}</error>`);
  if (look.filedAs.junit === 'skipped')
    inner.push(`      <skipped message="${xml(`${look.words}: ${firstLine(reason)}`)}">${xml(reason)}</skipped>`);
  const output = [test.state === 'warning' ? `${warningPrefix(level)}: ${reason}` : '', evidenceText(test, token)]
    .filter((part) => part !== '')
    .join('\n\n');
  if (output !== '') inner.push(`      <system-out>${xml(output)}</system-out>`);
  return inner.length === 0 ? `${open}</testcase>` : [open, ...inner, '    </testcase>'].join('\n');
}

export function renderJunit(report: ConformanceReport): string {
  const tests = report.rules.flatMap((rule) =>
    rule.tests.map((test) => ({ test, level: rule.level, classname: `${rule.level.toUpperCase()}.${rule.id}` })),
  );
  const count = (element: 'failure' | 'error' | 'skipped') =>
    tests.filter(({ test }) => testLook(test.state).filedAs.junit === element).length;
  const totals = `tests="${tests.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}"`;
  const testTime = seconds(tests.reduce((sum, { test }) => sum + test.durationMs, 0));
  const runTime = seconds(Date.parse(report.finishedAt) - Date.parse(report.startedAt));
  const { must, should, may } = report.summary;
  const token = operatorVariable('ACCESS_TOKEN', report.target.variables);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="zones-conformance" ${totals} time="${runTime}">`,
    // The suite's time is its tests' added up; the run's holds the preflight and the sweep as well.
    `  <testsuite name="${xml(report.specification)}" ${totals} time="${testTime}" timestamp="${report.startedAt}">`,
    ...properties(
      [
        // First: a CI page that shows a suite's properties shows the zones to remove before anything else.
        ...leftoverProperties(report.leftBehind),
        ['verdict', report.verdict],
        ['exit code', String(report.exitCode)],
        ['target', `${report.target.baseUrl}${report.target.embedded ? ' (embedded reference)' : ''}`],
        ['run', report.runId],
        ['MUST rules', `${must.passed} passed, ${must.failed} failed, ${must.notVerified} not verified`],
        ['SHOULD rules', `${should.passed} passed, ${should.warnings} warnings, ${should.notVerified} not verified`],
        ['MAY rules', `${may.passed} passed, ${may.warnings} warnings, ${may.notVerified} not verified`],
      ],
      '    ',
    ),
    ...tests.map(({ test, level, classname }) => testcase(level, classname, test, token)),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

export function writeJunit(report: ConformanceReport, reportsDir: string, token: string): string {
  const path = join(reportsDir, 'junit.xml');
  const secrets = new Secrets({ token });
  // Masked before it is rendered, so the mask is escaped like any text; the written text once more after.
  writeFileSync(path, secrets.mask(renderJunit(secrets.maskAll(report))));
  return path;
}
