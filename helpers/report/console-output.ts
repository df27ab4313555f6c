// The terminal: a line per test and per area (suite file) as they finish, then the rules, the verdict and
// why each rule broke, so one glance tells what to fix. `--quiet` keeps the verdict and any zone left behind.
import { basename } from 'node:path';
import type { Secrets } from '../evidence/secrets.ts';
import { STATES, testLook } from '../judging/states.ts';
import { failureOf, type TestOutcome } from '../judging/verdict.ts';
import { findRule } from '../rules.ts';
import type { ConformanceReport } from './certificate.ts';
import { exitCodeText, openRules, ruleNotes, seedOrigin } from './conformance-report.ts';
import { comparisonLines, isSelected } from './history.ts';
import { leftoverLines } from './leftovers.ts';
import { requestsLine } from './request-accounting.ts';

function markOf(outcome: TestOutcome): string {
  const rule = outcome.ruleId ? findRule(outcome.ruleId) : undefined;
  return testLook(outcome.state === 'failed' && rule ? failureOf(rule.level) : outcome.state).says.console;
}

export function printOutcome(outcome: TestOutcome): void {
  console.log(`  ${markOf(outcome).padEnd(5)} ${outcome.title}`);
}

/** The run as it goes: each test's line, and an area's when the next file's first test closes it (files run in turn). */
export class Progress {
  private area: { name: string; marks: Map<string, number> } | undefined;

  /** `selected`: false for a test that --rule left out, which vitest reports as skipped. */
  constructor(
    private readonly quiet: boolean,
    private readonly selected: (ruleId: string | undefined) => boolean,
  ) {}

  outcome(outcome: TestOutcome): void {
    if (!this.selected(outcome.ruleId)) return;
    const name = basename(outcome.file).replace(/\.test\.ts$/, '');
    if (this.area?.name !== name) this.finish();
    this.area ??= { name, marks: new Map() };
    const mark = markOf(outcome);
    this.area.marks.set(mark, (this.area.marks.get(mark) ?? 0) + 1);
    if (!this.quiet) printOutcome(outcome);
  }

  finish(): void {
    if (this.area === undefined) return;
    const { name, marks } = this.area;
    this.area = undefined;
    const total = [...marks.values()].reduce((sum, n) => sum + n, 0);
    const counts = [...marks].map(([mark, n]) => `${n} ${mark}`).join(', ');
    if (!this.quiet) console.log(`  -- ${name}: ${total} test(s) done: ${counts}`);
  }
}

function ruleTable(report: ConformanceReport): string[] {
  const row = (cells: string[]) => `  ${cells[0]!.padEnd(11)}${cells[1]!.padEnd(8)}${cells[2]!.padEnd(14)}${cells[3]}`;
  return [
    row(['rule', 'level', 'result', 'tests']),
    ...report.rules.map((rule) => {
      const level = rule.level.toUpperCase();
      if (!isSelected(report, rule.id)) return row([rule.id, level, STATES['not-selected'].words, '-']);
      const passed = rule.tests.filter((test) => test.state === 'passed').length;
      return row([rule.id, level, STATES[rule.status].says.loud, `${passed}/${rule.tests.length} passed`]);
    }),
  ];
}

export function printSummary(
  report: ConformanceReport,
  files: { json: string; markdown: string; page?: string },
  secrets: Secrets,
  quiet = false,
): void {
  // Reasons quote what targets answered, so each line goes through the masker like any report.
  const say = (line: string) => console.log(secrets.mask(line));
  const { must, should, may } = report.summary;
  const { comparison, selection, cleanup, model } = report;
  const mustLeftOut = report.rules.filter((rule) => rule.level === 'must' && !isSelected(report, rule.id)).length;
  const leftOut = selection ? `, ${mustLeftOut} not selected (--rule ${selection.rule})` : '';
  const verdictLine = `verdict: ${report.verdict.toUpperCase()}  MUST ${must.passed} passed, ${must.failed} failed, ${must.notVerified - mustLeftOut} not verified${leftOut}; SHOULD ${should.warnings} warning(s); MAY ${may.warnings} warning(s)`;
  const changes = comparison ? comparisonLines(comparison) : [];
  const cut = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}...` : text);
  if (quiet) {
    say(verdictLine);
    if (comparison) say(`since the baseline: ${changes.map(({ label, rules }) => `${label} ${rules}`).join('; ')}`);
    // Never quiet: a zone left on a shared shop waits for a person, and only these lines tell them.
    for (const line of leftoverLines(report.leftBehind)) say(line);
    return;
  }
  say('');
  for (const line of ruleTable(report)) say(line);
  say('');
  for (const rule of openRules(report)) {
    // Padded to the width of WARNING, so that the ids line up under passed, FAILED and WARNING.
    say(`${STATES[rule.status].says.loud.padEnd(7)} ${rule.id} ${rule.title}`);
    say(`        ${cut((rule.reason ?? '').split('\n')[0]!)}`);
  }
  for (const line of leftoverLines(report.leftBehind)) say(line);
  for (const error of report.suiteErrors) say(`SUITE ERROR ${error}`);
  for (const note of report.notes) say(`NOTE ${note}`);
  for (const note of ruleNotes(report)) say(`NOTE ${cut(note)}`);
  if (comparison) {
    const { baseline } = comparison;
    say('');
    say(`compared with ${baseline.path} (run ${baseline.runId}, ${baseline.verdict}):`);
    for (const { label, rules } of changes) say(`  ${label.padEnd(19)}${rules}`);
  }
  say('');
  say(verdictLine);
  say(requestsLine(report.requests));
  say(`zones created ${cleanup.created}, deleted ${cleanup.deleted}, left ${cleanup.leftBehind.length}`);
  if (model) say(`model-based seed ${model.seed} (${seedOrigin(model)}); replay: ${model.replay}`);
  const page = files.page === undefined ? '' : `${files.page} (open this first), `;
  say(`report: ${page}${files.markdown} and ${files.json} (exit code ${exitCodeText(report)})`);
}

/** A reader of the output that goes away (`| head`, a `| tee` the same Ctrl-C stopped) must not end the run before clean-up with an EPIPE. */
export function outliveOutputReaders(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}
