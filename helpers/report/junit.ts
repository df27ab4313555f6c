// junit.xml for CI dashboards, filed as the verdict judged each test (states.ts): a warning is a passed
// testcase that says so, since CI tools count every <failure> as red. Names stay the same whatever the
// settings, so that CI tools keep each test's history.
import { testLook, warningPrefix } from '../judging/states.ts';
import type { JudgedTest } from '../judging/verdict.ts';
import type { RuleLevel } from '../rules.ts';
import type { ConformanceJson, CouldNotRunReport } from './certificate.ts';
import { countsText, targetText, tokenVariable } from './conformance-report.ts';
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

const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

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

/** A testcase as written, with the element it is filed under and its time. */
type Testcase = ReturnType<typeof testcase>;

function testcase(level: RuleLevel, classname: string, test: JudgedTest, token: string) {
  const open = `    <testcase classname="${xml(classname)}" name="${xml(test.title)}" time="${seconds(test.durationMs)}">`;
  const look = testLook(test.state);
  const filed = look.filedAs.junit;
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
  const opening = {
    failure: `<failure message="${xml(firstLine(reason))}" type="${type}">`,
    error: `<error message="${look.words}" type="${type}">`,
    skipped: `<skipped message="${xml(`${look.words}: ${firstLine(reason)}`)}">`,
  };
  // JUnit's order: the outcome's element first, then the output.
  if (filed) inner.push(`      ${opening[filed]}${xml(reason)}</${filed}>`);
  const output = [test.state === 'warning' ? `${warningPrefix(level)}: ${reason}` : '', evidenceText(test, token)]
    .filter((part) => part !== '')
    .join('\n\n');
  if (output !== '') inner.push(`      <system-out>${xml(output)}</system-out>`);
  const text = inner.length === 0 ? `${open}</testcase>` : [open, ...inner, '    </testcase>'].join('\n');
  return { text, filed, ms: test.durationMs };
}

/** A run that could not start is one errored testcase, so a dashboard shows red rather than an empty, green suite. */
function couldNotStart(report: CouldNotRunReport, ms: number): Testcase {
  const text = [
    `    <testcase classname="zones-conformance" name="the run starts" time="${seconds(ms)}">`,
    `      <error message="${xml(`could not run: ${firstLine(report.reason)}`)}">${xml(report.reason)}</error>`,
    '    </testcase>',
  ].join('\n');
  return { text, filed: 'error', ms };
}

export function renderJunit(report: ConformanceJson): string {
  const runMs = Date.parse(report.finishedAt) - Date.parse(report.startedAt);
  // Named as a run that did start names it, with the verdict among the properties, as there.
  const run = report.verdict === 'could-not-run' ? undefined : report;
  const tests =
    report.verdict === 'could-not-run'
      ? [couldNotStart(report, runMs)]
      : report.rules.flatMap((rule) =>
          rule.tests.map((test) =>
            testcase(rule.level, `${rule.level.toUpperCase()}.${rule.id}`, test, tokenVariable(report)),
          ),
        );
  const count = (element: Testcase['filed']) => tests.filter((test) => test.filed === element).length;
  const totals = `tests="${tests.length}" failures="${count('failure')}" errors="${count('error')}" skipped="${count('skipped')}"`;
  const summary = run?.summary;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="zones-conformance" ${totals} time="${seconds(runMs)}">`,
    // The suite's time is its tests' added up; the run's holds the preflight and the sweep as well.
    `  <testsuite name="${xml(report.specification)}" ${totals} time="${seconds(tests.reduce((sum, test) => sum + test.ms, 0))}" timestamp="${report.startedAt}">`,
    ...properties(
      [
        // First: a CI page that shows a suite's properties shows the zones to remove before anything else.
        ...leftoverProperties(run?.leftBehind ?? []),
        ['verdict', report.verdict],
        ['exit code', String(report.exitCode)],
        ['target', run && targetText(run)],
        ['run', run?.runId],
        ['MUST rules', summary && countsText(summary.must)],
        ['SHOULD rules', summary && countsText(summary.should)],
        ['MAY rules', summary && countsText(summary.may)],
      ],
      '    ',
    ),
    ...tests.map((test) => test.text),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
