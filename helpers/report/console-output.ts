// What a person sees in the terminal: a line per test as it finishes, then the verdict and, for each
// rule that broke, why, so one glance tells what to fix.

import { findRule } from '../rules.ts';
import { failureOf, type RuleStatus, type TestOutcome } from '../runner/verdict.ts';
import type { Secrets } from '../target/secrets.ts';
import type { ConformanceReport } from './conformance-report.ts';

const MARKS: Record<TestOutcome['state'], string> = {
  passed: 'pass',
  failed: 'FAIL',
  'not-verified': 'n/v ',
  'suite-error': 'ERR ',
};

const SUMMARY_LABEL: Record<RuleStatus, string> = {
  passed: 'passed ',
  failed: 'FAILED ',
  warning: 'WARNING',
  'not-verified': 'NOT VERIFIED',
};

export function printOutcome(outcome: TestOutcome): void {
  const rule = outcome.ruleId ? findRule(outcome.ruleId) : undefined;
  const mark =
    outcome.state === 'failed' && rule && failureOf(rule.level) === 'warning' ? 'warn' : MARKS[outcome.state];
  console.log(`  ${mark}  ${outcome.title}`);
}

export function printSummary(
  report: ConformanceReport,
  files: { json: string; markdown: string },
  secrets: Secrets,
): void {
  // Reasons quote what targets answered, so each line goes through the masker like any report.
  const say = (line: string) => console.log(secrets.mask(line));
  const { must, should, may } = report.summary;
  say('');
  for (const rule of report.rules.filter((r) => r.status !== 'passed')) {
    say(`${SUMMARY_LABEL[rule.status]} ${rule.id} ${rule.title}`);
    const reason = (rule.reason ?? '').split('\n')[0]!;
    say(`        ${reason.length > 300 ? `${reason.slice(0, 300)}...` : reason}`);
  }
  if (report.cleanup.leftBehind.length > 0) {
    say(`LEFT BEHIND ${report.cleanup.leftBehind.map((z) => `${z.id} (${z.reason})`).join(', ')}`);
  }
  for (const error of report.suiteErrors) say(`SUITE ERROR ${error}`);
  for (const note of report.notes) say(`NOTE ${note}`);
  say('');
  say(
    `verdict: ${report.verdict.toUpperCase()}  MUST ${must.passed} passed, ${must.failed} failed, ${must.notVerified} not verified; SHOULD ${should.warnings} warning(s); MAY ${may.warnings} warning(s)`,
  );
  say(
    `requests: ${report.requests.total}; zones created ${report.cleanup.created}, deleted ${report.cleanup.deleted}, left ${report.cleanup.leftBehind.length}`,
  );
  say(`report: ${files.markdown} and ${files.json} (exit code ${report.exitCode})`);
}

/**
 * A reader of the run's output that goes away (`| head`, or a `| tee` that the same Ctrl-C stopped)
 * must not take the run down with it: the clean-up and the reports still have to happen. Without a
 * listener, the EPIPE of the next write would end the process on the spot.
 */
export function outliveOutputReaders(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
  }
}
