// The conformance certificate: built once from the run (buildReport), the words every report uses for
// its facts, and conformance.md, the certificate for people, as conformance.json is for machines.
import { describeTarget, seedReplayCommand, type TargetConfig } from '../config.ts';
import { shownProxy } from '../connection/proxy.ts';
import { operatorVariable } from '../evidence/replay.ts';
import type { RequestTally } from '../evidence/request-tally.ts';
import { exitCodeForSignal } from '../exit-codes.ts';
import { STATES, shownStateOf, testLook, VERDICTS } from '../judging/states.ts';
import {
  type JudgedTest,
  judgeRules,
  NO_TEST_RAN,
  type RuleResult,
  type RuleStatus,
  TEST_DID_NOT_RUN,
  type TestOutcome,
  verdictOf,
} from '../judging/verdict.ts';
import type { CleanupRecord } from '../ownership/cleanup-record.ts';
import { otherVersionNote, type RuleLevel, SPEC_VERSION } from '../rules.ts';
import type { Comparison, ConformanceJson, ConformanceReport } from './certificate.ts';
import { type Baseline, compare, comparisonLines, isSelected } from './history.ts';
import { leftoverMarkdown } from './leftovers.ts';
import { code, fenced } from './markdown-code.ts';
import { accountRequests, requestTables } from './request-accounting.ts';

export interface RunFacts {
  config: TargetConfig;
  runId: string;
  startedAt: Date;
  finishedAt: Date;
  outcomes: readonly TestOutcome[];
  runErrors: readonly string[];
  cleanup: CleanupRecord;
  requests: {
    preflight: number;
    sweep: number;
    throttled: number;
    /** What the launcher's own requests were; a run's facts made by hand may have none. */
    tally?: { preflight: RequestTally; sweep: RequestTally };
  };
  outage?: ConformanceReport['outage'];
  /** What the launcher knows and the run does not: a signal that stopped it, --rule, --baseline. */
  stoppedBy?: NodeJS.Signals;
  selection?: NonNullable<ConformanceReport['selection']>;
  baseline?: { baseline: Baseline; failOn: 'new' | null };
  targetVariables?: string;
  /** The note on bodies past the cap of bodies/ (bounded-body.ts notKeptNote), read once the tests are over. */
  bodiesNotKept?: string;
}

/** The certificate of a run, built once from everything known of it; nothing edits it afterwards. */
export function buildReport(facts: RunFacts): ConformanceReport {
  const { config } = facts;
  const rules = judgeRules(facts.outcomes);
  const suiteErrors = [
    ...facts.runErrors,
    ...facts.outcomes.filter((o) => o.state === 'suite-error').map((o) => `${o.title}: ${o.reason}`),
  ];
  // A rule the run never reached says the shop was gone (one not verified for a reason of its own keeps it);
  // one --rule left out is not verified as not selected, not as "did not run", and its model-based notes go.
  for (const rule of rules) {
    if (facts.outage && rule.status === 'not-verified' && NEVER_RAN.has(rule.reason ?? '')) {
      rule.reason = `not reached: ${outageLine(facts.outage)}`;
      for (const test of rule.tests) if (NEVER_RAN.has(test.reason ?? '')) test.reason = rule.reason;
    }
    if (facts.selection && !facts.selection.rules.includes(rule.id)) {
      rule.reason = `not selected (--rule ${facts.selection.rule})`;
      rule.notes = undefined;
      for (const test of rule.tests) test.reason = rule.reason;
    }
  }
  const verdict = facts.outage ? 'could-not-complete' : verdictOf(rules, suiteErrors);
  const count = (level: RuleLevel) => (status: RuleStatus) =>
    rules.filter((rule) => rule.level === level && rule.status === status).length;
  const must = count('must');
  const should = count('should');
  const may = count('may');
  const sum = (of: (outcome: TestOutcome) => number) => facts.outcomes.reduce((total, o) => total + of(o), 0);
  const tests = sum((o) => o.requests);
  const cleanup = sum((o) => o.cleanupRequests) + facts.requests.sweep;
  const lags = facts.outcomes.flatMap((o) => o.lagMs);
  const report: ConformanceReport = {
    suite: 'zones-conformance',
    specification: `Zone Management Service, API version ${SPEC_VERSION}`,
    verdict,
    exitCode: VERDICTS[verdict].exitCode,
    leftBehind: facts.cleanup.leftBehind,
    runId: facts.runId,
    startedAt: facts.startedAt.toISOString(),
    finishedAt: facts.finishedAt.toISOString(),
    target: {
      baseUrl: config.baseUrl,
      embedded: config.embedded,
      tls: !config.baseUrl.startsWith('https:') ? 'plain-http' : config.tlsInsecure ? 'not-verified' : 'verified',
      proxy:
        config.embedded || config.proxy === undefined
          ? null
          : `${shownProxy(config.proxy.url)} (${config.proxy.variable})`,
      variables: facts.targetVariables,
      settings: describeTarget(config),
    },
    // Below MUST a rule that fails warns (failureOf): SHOULD and MAY count warnings where MUST counts failures.
    summary: {
      must: { passed: must('passed'), failed: must('failed'), notVerified: must('not-verified') },
      should: { passed: should('passed'), warnings: should('warning'), notVerified: should('not-verified') },
      may: { passed: may('passed'), warnings: may('warning'), notVerified: may('not-verified') },
    },
    rules,
    requests: {
      total: tests + cleanup + facts.requests.preflight,
      tests,
      cleanup,
      preflight: facts.requests.preflight,
      throttled: facts.requests.throttled + sum((o) => o.throttled),
      ...accountRequests(facts.outcomes, facts.requests.tally ?? {}, config.apiVersion),
    },
    consistency: {
      timeoutMs: config.consistencyTimeoutMs,
      lagSeen: lags.length,
      longestLagMs: Math.max(0, ...lags),
    },
    cleanup: facts.cleanup,
    suiteErrors,
    // ZONES_API_VERSION may point elsewhere than the specification, and the report says so.
    notes: [
      facts.outage && `the run could not complete: ${outageLine(facts.outage)}`,
      otherVersionNote(config.apiVersion),
      config.tlsInsecure &&
        "TLS was not verified (ZONES_TLS_INSECURE=1): the shop's certificate was not checked, so this certificate cannot tell the shop from anything else that answered at its address",
      facts.bodiesNotKept,
      facts.selection &&
        `a partial run: only ${facts.selection.rules.join(', ')} (--rule ${facts.selection.rule}); the other ${rules.length - facts.selection.rules.length} rules are not verified, as not selected`,
    ].filter((note) => typeof note === 'string'),
    ...modelSeedOf(config, facts.selection),
    ...(facts.outage ? { outage: facts.outage } : {}),
    ...(facts.selection ? { selection: facts.selection } : {}),
  };
  if (facts.baseline) report.comparison = compare(report, facts.baseline.baseline, facts.baseline.failOn);
  // One exit code for the run, the process's: a signal's first, then an outage's (exit 3 even under
  // --fail-on new: no rule failed or was fixed tonight, the shop was gone), then --fail-on new's.
  if (facts.stoppedBy) {
    report.stopped = { signal: facts.stoppedBy, exitCode: exitCodeForSignal(facts.stoppedBy) };
    report.exitCode = report.stopped.exitCode;
  } else if (!facts.outage && report.comparison) report.exitCode = report.comparison.exitCode;
  return report;
}

export function outageLine(outage: NonNullable<ConformanceReport['outage']>): string {
  return `the shop stopped answering for itself at ${outage.since} (${outage.what}) and did not come back within ZONES_OUTAGE_BUDGET_MS=${outage.budgetMs}; the rules decided before then keep their status, the rest are not verified`;
}

/** A stopped run in the words of every report, first thing under the verdict. */
export function stoppedLine(stopped: NonNullable<ConformanceReport['stopped']>): string {
  return `The run was stopped by ${stopped.signal} before every test had run; exit code ${stopped.exitCode}.`;
}

/** What a test that was never run, or a rule with none run, says of itself. */
const NEVER_RAN = new Set([TEST_DID_NOT_RUN, NO_TEST_RAN]);

/** A replay runs what the night ran: a --rule run's selection too, its spaces gone so the command needs no quotes. */
function modelSeedOf(config: TargetConfig, selection: RunFacts['selection']): Pick<ConformanceReport, 'model'> {
  const { runs, seed, seedDrawn } = config.model;
  if (runs === 0 || seed === undefined) return {};
  const replay = seedReplayCommand(seed, selection?.rule.replace(/\s+/g, ''));
  return { model: { seed, drawn: seedDrawn === true, replay } };
}

export function seedOrigin(model: NonNullable<ConformanceReport['model']>): string {
  return model.drawn ? 'drawn for this run' : 'set by ZONES_MODEL_SEED or --seed';
}

/** The notes on the rules the run checked (a model-based test that did not verify a rule its example tests decided). */
export function ruleNotes(report: ConformanceReport): string[] {
  const checked = report.rules.filter((rule) => isSelected(report, rule.id));
  return checked.flatMap((rule) => (rule.notes ?? []).map((note) => `${rule.id}: ${note}`));
}

/** The rules the reports detail: those that did not pass, among the rules the run checked. */
export const openRules = (report: ConformanceReport) =>
  report.rules.filter((rule) => rule.status !== 'passed' && isSelected(report, rule.id));

export const checkedWith = (report: ConformanceReport) =>
  report.rules.flatMap((rule) =>
    rule.tests.flatMap((test) => (test.checkedWith ? [`${test.title}: ${test.checkedWith.join('; ')}`] : [])),
  );

/** A rule's status in the markdown tables; a rule --rule left out is not selected. */
export const markdownStatus = (report: ConformanceReport, rule: RuleResult) =>
  isSelected(report, rule.id) ? STATES[shownStateOf(rule)].says.markdown(rule.level) : STATES['not-selected'].words;

/** The outage and the signal, first under the verdict: a reader must know at once that no verdict on the shop was given. */
export function alertLines(report: ConformanceReport): string[] {
  return [
    ...(report.outage ? [`**The run could not complete:** ${outageLine(report.outage)}.`, ''] : []),
    ...(report.stopped ? [`**${stoppedLine(report.stopped)}**`, ''] : []),
  ];
}

const TLS_SHOWN: Record<ConformanceReport['target']['tls'], FactPart[]> = {
  verified: ['verified'],
  'not-verified': [{ strong: 'NOT VERIFIED' }, ' (ZONES_TLS_INSECURE=1)'],
  'plain-http': ['none (http://)'],
};

/** The target as every report names it. */
export const targetText = (report: ConformanceReport) =>
  `${report.target.baseUrl}${report.target.embedded ? ' (embedded reference)' : ''}`;

/** The variable the printed curl commands read the credential from. */
export const tokenVariable = (report: ConformanceReport) => operatorVariable('ACCESS_TOKEN', report.target.variables);

/** A level's rules counted as every report words them: a MUST rule fails, a SHOULD or MAY rule warns. */
export function countsText(counts: ConformanceReport['summary'][RuleLevel]) {
  const broken = 'failed' in counts ? `${counts.failed} failed` : `${counts.warnings} warnings`;
  return `${counts.passed} passed, ${broken}, ${counts.notVerified} not verified`;
}

/** The counts under the verdict, as the page's header and the job summary say them. */
export function countsSentence({ summary: { must, should, may } }: ConformanceReport): string {
  return `MUST ${must.passed} passed, ${must.failed} failed, ${must.notVerified} not verified; SHOULD ${should.warnings} warning(s); MAY ${may.warnings} warning(s)`;
}

/** A piece of a fact as every writer shows it: plain text, text to stress, or a command to copy. */
export type FactPart = string | { strong: string } | { code: string };
type Fact = [label: string, parts: FactPart[]];

/** The run in a few facts, as conformance.md's table under its title and the page's below its grid. */
export function runFacts(report: ConformanceJson): Fact[] {
  const verdict: Fact = ['Verdict', [{ strong: report.verdict }, ` (exit code ${exitCodeText(report)})`]];
  const run = `${report.startedAt} to ${report.finishedAt}`;
  if (report.verdict === 'could-not-run')
    return [['Target', [report.target.baseUrl ?? '(not known)']], verdict, ['Run', [run]]];
  const { summary, requests: sent, consistency: lag, cleanup, model } = report;
  const cost = `${sent.total} (tests ${sent.tests}, clean-up ${sent.cleanup}, preflight ${sent.preflight}); ${sent.throttled} answered 429 and were sent again`;
  const lagSeen = lag.lagSeen === 0 ? 'none seen' : `seen ${lag.lagSeen} time(s), longest ${lag.longestLagMs} ms`;
  const facts: (Fact | undefined)[] = [
    ['Target', [targetText(report)]],
    ['TLS', TLS_SHOWN[report.target.tls]],
    report.target.proxy === null ? undefined : ['Proxy', [report.target.proxy]],
    verdict,
    ['MUST rules', [countsText(summary.must)]],
    ['SHOULD rules', [countsText(summary.should)]],
    ['MAY rules (robustness)', [countsText(summary.may)]],
    ['Run', [`${report.runId}, ${run}`]],
    model && ['Model-based seed', [`${model.seed} (${seedOrigin(model)}); replay: `, { code: model.replay }]],
    ['Requests', [cost]],
    ['Read-after-write lag', [`${lagSeen} (allowed: ${lag.timeoutMs} ms)`]],
    ['Clean-up', [`${cleanup.created} created, ${cleanup.deleted} deleted, ${cleanup.leftBehind.length} left behind`]],
  ];
  return facts.filter((fact) => fact !== undefined);
}

function markdownPart(part: FactPart): string {
  if (typeof part === 'string') return part;
  return 'strong' in part ? `**${part.strong}**` : code(part.code);
}

/** A test that did not pass: why, what it checked with, and every exchange in order, each with its curl replay. */
function testSection(test: JudgedTest, level: RuleLevel, token: string): string[] {
  const lines = [`- ${test.title}: ${testLook(test.state).says.testMark(level)}`, ''];
  if (test.checkedWith !== undefined) lines.push(`  Checked with: ${test.checkedWith.join('; ')}`, '');
  lines.push(...fenced((test.reason ?? '').trim()), '');
  const evidence = test.evidence ?? [];
  if (evidence.length === 0) return lines;
  lines.push(
    `  Every exchange of the test, in order (${evidence.length}), each with a curl command that replays it; the commands read the credential from ${token}:`,
    '',
  );
  const indent = (block: string[]) => block.map((line) => (line === '' ? '' : `   ${line}`));
  for (const [index, record] of evidence.entries()) {
    lines.push(`${index + 1}. ${code(record.line)}`, '', ...indent(fenced(record.shown)), '');
    lines.push(...indent(fenced(record.curl, 'sh')), '');
  }
  return lines;
}

export function renderMarkdown(report: ConformanceJson): string {
  const { head, detail } = markdownParts(report);
  return `${[...head, ...detail.flat()].join('\n')}\n`;
}

function factsTable(report: ConformanceJson): string[] {
  const rows = runFacts(report).map(([label, parts]) => `| ${label} | ${parts.map(markdownPart).join('')} |`);
  return ['| | |', '|---|---|', ...rows, ''];
}

/** conformance.md as the head a reader must always see, and detail in blocks that each read whole, so the job summary can end after any. */
export function markdownParts(report: ConformanceJson): { head: string[]; detail: string[][] } {
  const checkedBy = `${report.specification}, checked by zones-conformance.`;
  if (report.verdict === 'could-not-run') {
    const why = ['## Why', '', ...fenced(report.reason)];
    const head = [`${checkedBy} No rule was checked: the run could not start.`, '', ...factsTable(report), ...why];
    return { head: ['# Conformance certificate: COULD NOT RUN', '', ...head], detail: [] };
  }
  const head = [
    `# Conformance certificate: ${report.verdict.toUpperCase()}`,
    '',
    ...leftoverMarkdown(report.leftBehind),
    ...alertLines(report),
    checkedBy,
    '',
    ...factsTable(report),
    '## Rules',
    '',
    '| Rule | Level | Status | Rule text |',
    '|---|---|---|---|',
    ...report.rules.map(
      (rule) => `| ${rule.id} | ${rule.level.toUpperCase()} | ${markdownStatus(report, rule)} | ${rule.title} |`,
    ),
    '',
    ...(report.comparison ? renderComparison(report, report.comparison) : []),
  ];
  const detail: string[][] = [];
  const listed = (heading: string, items: readonly string[]) => {
    if (items.length > 0) detail.push([`## ${heading}`, '', ...items.map((item) => `- ${item}`), '']);
  };
  listed('Checked with what the settings gave', checkedWith(report));
  const open = openRules(report);
  if (open.length > 0) detail.push(['## What broke, warned or could not be checked', '']);
  for (const rule of open) {
    detail.push([`### ${rule.id} ${STATES[rule.status].says.loud} (${rule.level.toUpperCase()})`, '', rule.title, '']);
    for (const test of rule.tests.filter((t) => t.state !== 'passed'))
      detail.push(testSection(test, rule.level, tokenVariable(report)));
    if (rule.tests.length === 0) detail.push([`- ${rule.reason}`, '']);
  }
  detail.push(requestTables(report.requests));
  listed('Suite errors', report.suiteErrors);
  listed('Notes', [...report.notes, ...ruleNotes(report)]);
  detail.push(['## Settings', '', '```json', JSON.stringify(report.target.settings, null, 2), '```', '']);
  return { head, detail };
}

/** The run's exit code and, where it is not the verdict's own, why: the same words in every output. */
export function exitCodeText(report: ConformanceJson): string {
  if (report.verdict === 'could-not-run') return String(report.exitCode);
  if (report.stopped) return `${report.exitCode}, stopped by ${report.stopped.signal}`;
  const comparison = report.outage ? undefined : report.comparison;
  if (comparison === undefined) return String(report.exitCode);
  if (comparison.failOn === null) return `${comparison.exitCode}, the verdict's`;
  return `${comparison.exitCode} by --fail-on new (new MUST failures only; the verdict's own is ${VERDICTS[report.verdict].exitCode})`;
}

export function renderComparison(report: ConformanceReport, comparison: Comparison): string[] {
  const { baseline } = comparison;
  return [
    '## Since the baseline',
    '',
    `Compared with ${baseline.path}: run ${baseline.runId} of ${baseline.startedAt}, verdict ${baseline.verdict}.`,
    '',
    '| Change | Rules |',
    '|---|---|',
    ...comparisonLines(comparison).map(({ label, rules }) => `| ${label} | ${rules} |`),
    '',
    `A failure of a SHOULD or MAY rule is a warning. Exit code ${exitCodeText(report)}.`,
    '',
  ];
}
