// The conformance certificate: built once from the run, written as conformance.json for machines
// and conformance.md for people, with the same content. The token never appears in either.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeTarget, type TargetConfig } from '../config.ts';
import type { CleanupRecord } from '../ownership/cleanup-record.ts';
import { otherVersionNote, type RuleLevel, SPEC_VERSION } from '../rules.ts';
import {
  exitCodeOf,
  judgeRules,
  type RuleResult,
  type TestOutcome,
  type Verdict,
  verdictOf,
} from '../runner/verdict.ts';
import { shownProxy } from '../target/proxy.ts';
import { Secrets } from '../target/secrets.ts';

export interface ConformanceReport {
  suite: 'zones-conformance';
  specification: string;
  verdict: Verdict;
  exitCode: number;
  runId: string;
  startedAt: string;
  finishedAt: string;
  target: {
    baseUrl: string;
    embedded: boolean;
    /** Whether the shop's certificate was verified: `not-verified` under ZONES_TLS_INSECURE=1. */
    tls: 'verified' | 'not-verified' | 'plain-http';
    /** The forward proxy the shop was reached through (no credentials), or null. */
    proxy: string | null;
    settings: Record<string, unknown>;
  };
  /** Per level; a failed SHOULD or MAY rule is a warning, which never changes the verdict. */
  summary: Record<RuleLevel, Record<'passed' | 'failed' | 'notVerified', number>>;
  rules: RuleResult[];
  requests: { total: number; tests: number; cleanup: number; preflight: number; throttled: number };
  /** Read-after-write lag: how often a list needed re-reading before it showed a write. */
  consistency: { timeoutMs: number; lagSeen: number; longestLagMs: number };
  cleanup: CleanupRecord;
  suiteErrors: string[];
  /** What a reader must know to weigh the verdict, e.g. a version other than the specification's. */
  notes: string[];
}

export interface RunFacts {
  config: TargetConfig;
  runId: string;
  startedAt: Date;
  finishedAt: Date;
  outcomes: readonly TestOutcome[];
  runErrors: readonly string[];
  cleanup: CleanupRecord;
  requests: { preflight: number; sweep: number; throttled: number };
}

export function buildReport(facts: RunFacts): ConformanceReport {
  const rules = judgeRules(facts.outcomes);
  const suiteErrors = [
    ...facts.runErrors,
    ...facts.outcomes.filter((o) => o.state === 'suite-error').map((o) => `${o.title}: ${o.reason}`),
  ];
  const verdict = verdictOf(rules, suiteErrors);
  const count = (level: RuleLevel) => {
    const mine = rules.filter((rule) => rule.level === level);
    return {
      passed: mine.filter((rule) => rule.status === 'passed').length,
      failed: mine.filter((rule) => rule.status === 'failed').length,
      notVerified: mine.filter((rule) => rule.status === 'not-verified').length,
    };
  };
  const tests = facts.outcomes.reduce((sum, o) => sum + o.requests, 0);
  const lags = facts.outcomes.flatMap((o) => o.lagMs);
  const cleanup = facts.outcomes.reduce((sum, o) => sum + o.cleanupRequests, 0) + facts.requests.sweep;
  return {
    suite: 'zones-conformance',
    specification: `Zone Management Service, API version ${SPEC_VERSION}`,
    verdict,
    exitCode: exitCodeOf(verdict),
    runId: facts.runId,
    startedAt: facts.startedAt.toISOString(),
    finishedAt: facts.finishedAt.toISOString(),
    target: {
      baseUrl: facts.config.baseUrl,
      embedded: facts.config.embedded,
      ...connectionOf(facts.config),
      settings: describeTarget(facts.config),
    },
    summary: { must: count('must'), should: count('should'), may: count('may') },
    rules,
    requests: {
      total: tests + cleanup + facts.requests.preflight,
      tests,
      cleanup,
      preflight: facts.requests.preflight,
      throttled: facts.requests.throttled + facts.outcomes.reduce((sum, o) => sum + o.throttled, 0),
    },
    consistency: {
      timeoutMs: facts.config.consistencyTimeoutMs,
      lagSeen: lags.length,
      longestLagMs: Math.max(0, ...lags),
    },
    cleanup: facts.cleanup,
    suiteErrors,
    // ZONES_API_VERSION may point elsewhere than the specification, and the report says so.
    notes: [otherVersionNote(facts.config.apiVersion), insecureNote(facts.config)].filter((note) => note !== undefined),
  };
}

function connectionOf(config: TargetConfig): Pick<ConformanceReport['target'], 'tls' | 'proxy'> {
  const tls = !config.baseUrl.startsWith('https:') ? 'plain-http' : config.tlsInsecure ? 'not-verified' : 'verified';
  return {
    tls,
    proxy:
      config.embedded || config.proxy === undefined
        ? null
        : `${shownProxy(config.proxy.url)} (${config.proxy.variable})`,
  };
}

function insecureNote(config: TargetConfig): string | undefined {
  if (!config.tlsInsecure) return undefined;
  return "TLS was not verified (ZONES_TLS_INSECURE=1): the shop's certificate was not checked, so this certificate cannot tell the shop from anything else that answered at its address";
}

const TLS_SHOWN: Record<ConformanceReport['target']['tls'], string> = {
  verified: 'verified',
  'not-verified': '**NOT VERIFIED** (ZONES_TLS_INSECURE=1)',
  'plain-http': 'none (http://)',
};

const STATUS_MARK: Record<string, string> = {
  passed: 'passed',
  failed: '**FAILED**',
  'not-verified': '*not verified*',
};

/** A SHOULD or MAY rule that failed is a warning: it reads as one, never as a MUST failure. */
function statusShown(rule: RuleResult): string {
  return rule.status === 'failed' && rule.level !== 'must' ? 'warning' : STATUS_MARK[rule.status]!;
}

function headingOf(rule: RuleResult): string {
  if (rule.status !== 'failed') return 'not verified';
  return rule.level === 'must' ? 'FAILED' : 'WARNING, does not change the verdict';
}

export function renderMarkdown(report: ConformanceReport): string {
  const lines = [
    `# Conformance certificate: ${report.verdict.toUpperCase()}`,
    '',
    `${report.specification}, checked by zones-conformance.`,
    '',
    '| | |',
    '|---|---|',
    `| Target | ${report.target.baseUrl}${report.target.embedded ? ' (embedded reference)' : ''} |`,
    `| TLS | ${TLS_SHOWN[report.target.tls]} |`,
    ...(report.target.proxy === null ? [] : [`| Proxy | ${report.target.proxy} |`]),
    `| Verdict | **${report.verdict}** (exit code ${report.exitCode}) |`,
    `| MUST rules | ${report.summary.must.passed} passed, ${report.summary.must.failed} failed, ${report.summary.must.notVerified} not verified |`,
    `| SHOULD rules | ${report.summary.should.passed} passed, ${report.summary.should.failed} warnings, ${report.summary.should.notVerified} not verified |`,
    `| MAY rules (robustness) | ${report.summary.may.passed} passed, ${report.summary.may.failed} warnings, ${report.summary.may.notVerified} not verified |`,
    `| Run | ${report.runId}, ${report.startedAt} to ${report.finishedAt} |`,
    `| Requests | ${report.requests.total} (tests ${report.requests.tests}, clean-up ${report.requests.cleanup}, preflight ${report.requests.preflight}); ${report.requests.throttled} answered 429 and were sent again |`,
    `| Read-after-write lag | ${report.consistency.lagSeen === 0 ? 'none seen' : `seen ${report.consistency.lagSeen} time(s), longest ${report.consistency.longestLagMs} ms`} (allowed: ${report.consistency.timeoutMs} ms) |`,
    `| Clean-up | ${report.cleanup.created} created, ${report.cleanup.deleted} deleted, ${report.cleanup.leftBehind.length} left behind |`,
    '',
    '## Rules',
    '',
    '| Rule | Level | Status | Rule text |',
    '|---|---|---|---|',
    ...report.rules.map(
      (rule) => `| ${rule.id} | ${rule.level.toUpperCase()} | ${statusShown(rule)} | ${rule.title} |`,
    ),
  ];
  const open = report.rules.filter((rule) => rule.status !== 'passed');
  if (open.length > 0) {
    lines.push('', '## What broke or could not be checked', '');
    for (const rule of open) {
      lines.push(`### ${rule.id} ${headingOf(rule)} (${rule.level.toUpperCase()})`, '', rule.title, '');
      for (const test of rule.tests.filter((t) => t.state !== 'passed')) {
        const state = test.state === 'failed' && rule.level !== 'must' ? 'warning' : test.state;
        lines.push(`- ${test.title}: ${state}`, '', '```', (test.reason ?? '').trim(), '```', '');
        if (test.exchanges.length > 0)
          lines.push('  What the test sent, in order:', '', ...test.exchanges.map((e) => `  1. \`${e}\``), '');
      }
      if (rule.tests.length === 0) lines.push(`- ${rule.reason}`, '');
    }
  }
  if (report.cleanup.leftBehind.length > 0) {
    lines.push('## Zones left behind', '', ...report.cleanup.leftBehind.map((z) => `- ${z.id}: ${z.reason}`), '');
  }
  if (report.suiteErrors.length > 0) lines.push('## Suite errors', '', ...report.suiteErrors.map((e) => `- ${e}`), '');
  if (report.notes.length > 0) lines.push('## Notes', '', ...report.notes.map((n) => `- ${n}`), '');
  lines.push('## Settings', '', '```json', JSON.stringify(report.target.settings, null, 2), '```', '');
  return `${lines.join('\n')}\n`;
}

export function writeReport(report: ConformanceReport, config: TargetConfig): { json: string; markdown: string } {
  mkdirSync(config.reportsDir, { recursive: true });
  const json = join(config.reportsDir, 'conformance.json');
  const markdown = join(config.reportsDir, 'conformance.md');
  // The last guard: no byte of a secret leaves the process in a report.
  const secrets = new Secrets(config);
  writeFileSync(json, secrets.mask(`${JSON.stringify(report, null, 2)}\n`));
  writeFileSync(markdown, secrets.mask(renderMarkdown(report)));
  return { json, markdown };
}

/** Everything a run writes beside its ledgers. Gone before a run starts, so that a run which stops
 * early can never leave the previous run's verdict looking like its own. */
const REPORT_FILES = ['conformance.json', 'conformance.md', 'junit.xml', 'allure-results', 'allure-report'];

export function removePreviousReports(reportsDir: string): void {
  for (const name of REPORT_FILES) rmSync(join(reportsDir, name), { recursive: true, force: true });
}
