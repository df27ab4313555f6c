// The certificate as data: what one run yields, built once (buildReport, or buildCouldNotRun) and read
// by every renderer. Types only, so that no file that builds or renders it imports another for a type.
import type { EXIT } from '../exit-codes.ts';
import type { RuleResult, RuleStatus, Verdict } from '../judging/verdict.ts';
import type { CleanupRecord, LeftZone } from '../ownership/cleanup-record.ts';
import type { RuleLevel } from '../rules.ts';
import type { RequestBreakdown } from './request-accounting.ts';

export interface ConformanceReport {
  suite: 'zones-conformance';
  specification: string;
  verdict: Verdict;
  /** The process's exit code, which every output names: the verdict's, unless a signal, an outage or `--fail-on new` decided it. */
  exitCode: number;
  /** The zones this run left on the shop, each with the command that deletes it: cleanup.leftBehind, up where nobody can miss them. */
  leftBehind: LeftZone[];
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
    /** What the operator's names for the target begin with, when the run was told (drift's mock run: ZONES_MOCK_). */
    variables?: string;
    settings: Record<string, unknown>;
  };
  /** Rules by level and status: a MUST rule fails; a SHOULD or MAY rule warns, which never changes the verdict. */
  summary: {
    must: { passed: number; failed: number; notVerified: number };
    should: { passed: number; warnings: number; notVerified: number };
    may: { passed: number; warnings: number; notVerified: number };
  };
  rules: RuleResult[];
  /** Every request sent, 429s and re-sends included: totals, then where they went (request-accounting.ts). */
  requests: { total: number; tests: number; cleanup: number; preflight: number; throttled: number } & RequestBreakdown;
  /** Read-after-write lag: how often a list needed re-reading before it showed a write. */
  consistency: { timeoutMs: number; lagSeen: number; longestLagMs: number };
  cleanup: CleanupRecord;
  suiteErrors: string[];
  /** What a reader must know to weigh the verdict, e.g. a version other than the specification's. */
  notes: string[];
  /** The model-based suite's seed (drawn unless ZONES_MODEL_SEED or --seed set it) and its replay; absent when ZONES_MODEL_RUNS=0. */
  model?: { seed: number; drawn: boolean; replay: string };
  /** A `--rule` run: what was asked and the rules it selected; the others are not verified, as not selected. */
  selection?: { rule: string; rules: string[] };
  /** With `--baseline`: tonight against an earlier conformance.json (history.ts, compare). */
  comparison?: Comparison;
  /** The shop stopped answering for itself partway, past the budget: the verdict is could-not-complete. */
  outage?: { since: string; what: string; budgetMs: number };
  /** The run was stopped by a signal before every test had run; its code is the run's `exitCode`. */
  stopped?: { signal: NodeJS.Signals; exitCode: number };
}

export type Change =
  | 'new-failure'
  | 'fixed'
  | 'still-failing'
  | 'newly-not-verified'
  | 'newly-verified'
  | 'unchanged'
  | 'not-selected';

export interface RuleChange {
  id: string;
  level: RuleLevel;
  /** `absent`: the baseline has no such rule (an older catalogue). */
  before: RuleStatus | 'absent';
  now: RuleStatus;
  change: Change;
}

type ChangeList = 'newFailures' | 'fixed' | 'stillFailing' | 'newlyNotVerified' | 'newlyVerified';

/**
 * A list per kind of change (history.ts CHANGE_LISTS). A failure is a MUST rule failed or a SHOULD or MAY rule
 * warned (`level` tells which); newly verified (not verified in the baseline, passed tonight) never changes the exit code.
 */
export interface Comparison extends Record<ChangeList, RuleChange[]> {
  baseline: { path: string; runId: string; startedAt: string; verdict: string; baseUrl: string | null };
  /** `new` with `--fail-on new`: the exit code then rests on new MUST failures. */
  failOn: 'new' | null;
  /** The verdict's own code, or by `--fail-on new`; the run's `exitCode` follows it unless a signal or an outage ended the run. */
  exitCode: number;
}

export interface CouldNotRunReport {
  suite: 'zones-conformance';
  specification: string;
  verdict: 'could-not-run';
  exitCode: typeof EXIT.cannotRun;
  reason: string;
  startedAt: string;
  finishedAt: string;
  /** null when the settings were too bad to name one, or named none and the embedded reference never started. */
  target: { baseUrl: string | null };
}

/** What conformance.json holds: a run's certificate, or why there was no run. */
export type ConformanceJson = ConformanceReport | CouldNotRunReport;
