// The table of states and verdicts (helpers/judging/states.ts) is what every report says. Its types
// make each row complete; this renders each state and each verdict once through every report, to
// show that each one reads its row rather than keeping words, marks or colours of its own.
import { expect, test, vi } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import { SHOWN_STATES, type ShownState, type ShownVerdict, STATES, VERDICTS } from '../helpers/judging/states.ts';
import type { TestOutcome } from '../helpers/judging/verdict.ts';
import { shownAsJudged } from '../helpers/report/allure-results.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { renderCertificatePage } from '../helpers/report/certificate-page.ts';
import { buildReport, type RunFacts, renderMarkdown } from '../helpers/report/conformance-report.ts';
import { printOutcome, printSummary } from '../helpers/report/console-output.ts';
import { buildCouldNotRun } from '../helpers/report/could-not-run.ts';
import { nightOf, type TargetHistory } from '../helpers/report/history.ts';
import { renderJobSummary } from '../helpers/report/job-summary.ts';
import { renderJunit } from '../helpers/report/junit.ts';
import { badgeSvg } from '../helpers/report/write-reports.ts';
import { rules } from '../helpers/rules.ts';
import { sampleOutcome, sampleRunFacts } from './support/sample-run.ts';

const config = readTargetConfig({ ZONES_BASE_URL: 'https://shop.example', ZONES_ACCESS_TOKEN: 'states-token' });
const must = rules.filter((rule) => rule.level === 'must');
const should = rules.find((rule) => rule.level === 'should')!;

/** Each shown state, by the rule that ends in it and the state of that rule's one test. */
const CASES: Record<ShownState, { ruleId: string; test: TestOutcome['state'] }> = {
  passed: { ruleId: must[0]!.id, test: 'passed' },
  failed: { ruleId: must[1]!.id, test: 'failed' },
  warning: { ruleId: should.id, test: 'failed' },
  'not-verified': { ruleId: must[2]!.id, test: 'not-verified' },
  'suite-defect': { ruleId: must[3]!.id, test: 'suite-error' },
};

function reportWith(states: Record<string, TestOutcome['state']>, more: Partial<RunFacts> = {}): ConformanceReport {
  const outcomes = rules.map((rule) =>
    sampleOutcome(`${rule.id} a check`, states[rule.id] ?? 'passed', { reason: states[rule.id] && 'why' }),
  );
  return buildReport({ ...sampleRunFacts(config, outcomes), ...more });
}

const report = reportWith(Object.fromEntries(Object.values(CASES).map(({ ruleId, test }) => [ruleId, test])));
// Two nights, so that the job summary draws its strips of glyphs too.
const history: TargetHistory = {
  path: 'reports/conformance-history.jsonl',
  nights: [{ ...nightOf(report), runId: 'the-night-before', startedAt: '2026-01-01T00:00:00.000Z' }, nightOf(report)],
  tonightKept: true,
};
const page = renderCertificatePage(report, '0.0.0', history);

/** What the console printed while `print` ran. */
function printed(print: () => void): string {
  const lines: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void lines.push(line));
  try {
    print();
  } finally {
    log.mockRestore();
  }
  return lines.join('\n');
}

/** The text between `start` and the next `end` after it: one rule's row or one testcase. */
const between = (text: string, start: string, end: string) => text.split(start)[1]!.split(end)[0]!;

test.for(SHOWN_STATES)('a rule %s shows in its row of the table in every report', (state) => {
  const look = STATES[state];
  const rule = report.rules.find((each) => each.id === CASES[state].ruleId)!;
  const [level, judged] = [rule.level, rule.tests[0]!.state];
  const cells = `| ${rule.id} | ${level.toUpperCase()} | ${look.says.markdown(level)} |`;
  expect(renderMarkdown(report)).toContain(`${cells} ${rule.title} |`);
  expect(renderJobSummary(report, history)).toContain(`${cells} ${look.glyph}${look.glyph} |`);
  const row = between(page, `<div class="rule s-${state}" data-rule="${rule.id}"`, '</div>');
  expect(row).toContain(`<span class="state">${look.words}</span>`);
  expect(row).toContain(`(tonight): ${look.words}">${look.glyph}</span>`);
  expect(page).toContain(`.s-${state}{--c:${look.colour}}`);
  const summary = printed(() => printSummary(report, { json: 'j', markdown: 'm' }, new Secrets(config)));
  expect(summary).toMatch(new RegExp(`^  ${rule.id} +${level.toUpperCase()} +${look.says.loud} `, 'm'));
  const outcome = sampleOutcome(`${rule.id} a check`, CASES[state].test);
  expect(printed(() => printOutcome(outcome))).toBe(`  ${look.says.console.padEnd(5)} ${outcome.title}`);
  const testcase = between(renderJunit(report), `classname="${level.toUpperCase()}.${rule.id}"`, '</testcase>');
  const filed = look.filedAs.outcome(level);
  if (filed === undefined) {
    // A pass is filed under no outcome and holds nothing in junit.xml.
    expect([state, testcase.includes('<')]).toEqual(['passed', false]);
    return;
  }
  expect(renderMarkdown(report)).toContain(`- ${rule.id} a check: ${look.says.testMark(level)}`);
  expect(testcase).toContain(`<property name="outcome" value="${filed}"/>`);
  if (look.filedAs.junit !== undefined) expect(testcase).toContain(`<${look.filedAs.junit} `);
  else expect(testcase).toContain(`<system-out>${look.says.testMark(level)}: why</system-out>`);
  const warning = judged === 'warning' ? look.says.testMark(level) : undefined;
  const shown = shownAsJudged({ name: outcome.title, status: 'failed' }, { state: judged, outcome: filed, warning });
  expect(shown.status).toBe(look.filedAs.allure);
});

const mustId = CASES.failed.ruleId;
const verdictReports: Record<Exclude<ShownVerdict, 'could-not-run'>, ConformanceReport> = {
  conformant: reportWith({}),
  'non-conformant': reportWith({ [mustId]: 'failed' }),
  incomplete: reportWith({ [mustId]: 'not-verified' }),
  'could-not-complete': reportWith({}, { outage: { since: '2026-01-01T00:00:00Z', what: 'no answer', budgetMs: 1 } }),
};

test.for(Object.keys(VERDICTS) as ShownVerdict[])('the verdict %s shows in its row of the table', (verdict) => {
  const look = VERDICTS[verdict];
  const badge = badgeSvg(verdict);
  expect(badge).toContain(`>${look.words}</text>`);
  expect(badge).toContain(`fill="${look.colour}"`);
  const made =
    verdict === 'could-not-run' ? buildCouldNotRun('no settings', new Date(0), null) : verdictReports[verdict];
  expect([made.verdict, made.exitCode]).toEqual([verdict, look.exitCode]);
  const shown = renderCertificatePage(made, '0.0.0', { ...history, nights: [], tonightKept: false });
  expect(shown).toContain(`<h1>${look.words.toUpperCase()}</h1>\n<p>Conformance certificate: ${look.meaning}.`);
  expect(shown).toContain(`.v-${verdict}{--v:${look.colour}}`);
});
