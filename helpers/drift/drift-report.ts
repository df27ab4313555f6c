// The drift verdict from the two runs: same, drifted, or could not run (naming the target). A run of
// the mock that stops at its preflight on a setting that describes the shop (its envelope, its auth
// header) is not "could not run": the mock needs another setting than the service, and that is the
// first difference a team wants to know of.
import type { TargetConfig } from '../config.ts';
import type { Exchange } from '../evidence/exchange.ts';
import { curlCommand } from '../evidence/replay.ts';
import { EXIT } from '../exit-codes.ts';
import type { ConformanceJson, ConformanceReport } from '../report/certificate.ts';
import { rules as catalogue, ruleById, SPEC_VERSION } from '../rules.ts';
import { compareRuns, type Difference, type ShownExchange } from './differences.ts';
import { readRunSide } from './run-side.ts';
import type { SideRun } from './side-runs.ts';
import { inSideNames, OPERATOR_PREFIX, type Side, styleSettingsNamed } from './targets.ts';

export type DriftVerdict = 'same' | 'drifted' | 'could-not-run';

export interface SideSummary {
  baseUrl: string;
  /** The conformance run's own verdict on the target: conformant, non-conformant... or could-not-run. */
  verdict: string;
  exitCode: number | null;
  /** Where its own reports are: conformance.json, conformance.md, its exchanges. */
  reportsDir: string;
}

export interface DriftReport {
  tool: 'zones-conformance drift';
  specification: string;
  verdict: DriftVerdict;
  exitCode: number;
  /** Why there is no comparison, naming the target: only with could-not-run. */
  reason?: string;
  startedAt: string;
  finishedAt: string;
  /** The model-based sequences' seed, the same for both runs. */
  seed: number;
  targets: Record<Side, SideSummary>;
  /** What was compared: tests found on both sides, and steps compared in them. */
  compared: { tests: number; steps: number };
  differences: Difference[];
  /** Every rule's verdict on each target, side by side. */
  rules: { id: string; level: string; title: string; service: string; mock: string }[];
  /**
   * Zones each run could not delete, with the command that sweeps them from the operator's drift
   * shell: the mock's names the mock's address and token, since ZONES_BASE_URL there is the service.
   */
  leftBehind: Record<Side, ConformanceReport['leftBehind']>;
}

/** What a run's certificate says it left behind; nothing when it wrote none, or could not run. */
function leftBehindOf(certificate: ConformanceJson | undefined): ConformanceReport['leftBehind'] {
  return certificate !== undefined && 'leftBehind' in certificate ? certificate.leftBehind : [];
}

export interface DriftFacts {
  startedAt: Date;
  seed: number;
  runs: readonly SideRun[];
  configs: Record<Side, TargetConfig>;
}

/** Why a side has no comparable run, or undefined when it ran: could not run, could not complete, or ended with no report. */
function whyNoRun(run: SideRun, certificate: ConformanceJson | undefined): string | undefined {
  if (certificate === undefined)
    return `its run ended (exit ${run.code ?? run.signal}) without writing conformance.json`;
  if (certificate.verdict === 'could-not-run') return certificate.reason;
  if (certificate.verdict === 'could-not-complete')
    return 'the target stopped answering for itself partway (could not complete; its conformance.md says since when)';
  return undefined;
}

export function buildDriftReport(facts: DriftFacts, read: (dir: string) => ConformanceJson | undefined): DriftReport {
  const bySide = Object.fromEntries(facts.runs.map((run) => [run.side, run])) as Record<Side, SideRun>;
  const certificates = {
    service: read(bySide.service.reportsDir),
    mock: read(bySide.mock.reportsDir),
  };
  const summary = (side: Side): SideSummary => ({
    baseUrl: facts.configs[side].baseUrl,
    verdict: certificates[side]?.verdict ?? 'no report',
    exitCode: bySide[side].code,
    reportsDir: bySide[side].reportsDir,
  });
  const base = reportBase(
    facts,
    { service: summary('service'), mock: summary('mock') },
    {
      service: leftBehindOf(certificates.service),
      mock: leftBehindOf(certificates.mock),
    },
  );
  const couldNotRun = (reason: string) => couldNotRunReport(base, reason);

  const whyNot = {
    service: whyNoRun(bySide.service, certificates.service),
    mock: whyNoRun(bySide.mock, certificates.mock),
  };
  const service = certificates.service as Extract<ConformanceJson, { rules: unknown }>;
  const refused = refusal(base, whyNot, certificates.mock?.verdict === 'could-not-run', facts.configs, (rule) => {
    return service.rules.find((known) => known.id === rule)?.status ?? 'not run';
  });
  if (refused) return refused;

  const mock = certificates.mock as Extract<ConformanceJson, { rules: unknown }>;
  const serviceSide = readRunSide(bySide.service.reportsDir, service);
  const mockSide = readRunSide(bySide.mock.reportsDir, mock);
  const comparison = compareRuns(serviceSide, mockSide, facts.configs.service);
  if (comparison.comparedSteps === 0)
    return couldNotRun(
      "no step was compared: the runs recorded no exchanges both targets answered (is the exchanges file written? see the runs' own reports)",
    );
  const drifted = comparison.differences.length > 0;
  return {
    ...base,
    verdict: drifted ? 'drifted' : 'same',
    exitCode: drifted ? EXIT.failed : EXIT.ok,
    compared: { tests: comparison.comparedTests, steps: comparison.comparedSteps },
    differences: comparison.differences,
    rules: comparison.rules.map((rule) => {
      const known = ruleById(rule.id);
      return { id: rule.id, level: known.level, title: known.title, service: rule.service, mock: rule.mock };
    }),
  };
}

/** What every drift report says whatever its verdict: when, with which seed, of which targets. */
export type ReportBase = Omit<DriftReport, 'verdict' | 'exitCode' | 'reason' | 'compared' | 'differences' | 'rules'>;

/** The report's base, finished now; nothing left behind unless told, as when neither run started. */
export function reportBase(
  facts: { startedAt: Date; seed: number },
  targets: Record<Side, SideSummary>,
  leftBehind: DriftReport['leftBehind'] = { service: [], mock: [] },
): ReportBase {
  return {
    tool: 'zones-conformance drift',
    specification: `Zone Management Service, API version ${SPEC_VERSION}`,
    startedAt: facts.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    seed: facts.seed,
    targets,
    leftBehind,
  };
}

/** No comparison, and why, naming the target. */
export function couldNotRunReport(base: ReportBase, reason: string): DriftReport {
  return {
    ...base,
    verdict: 'could-not-run',
    exitCode: EXIT.cannotRun,
    reason,
    compared: { tests: 0, steps: 0 },
    differences: [],
    rules: [],
  };
}

/**
 * The report when a side could not run: could-not-run naming the side, unless only the mock stopped at
 * its preflight, on a setting that describes the shop: then the setting is the difference (exit 1).
 * `atPreflight`: the mock's reason is its preflight's; `serviceStatus`: each rule's status on the
 * service, or "not run".
 */
function refusal(
  base: ReportBase,
  whyNot: Record<Side, string | undefined>,
  atPreflight: boolean,
  configs: Record<Side, TargetConfig>,
  serviceStatus: (rule: string) => string,
): DriftReport | undefined {
  const couldNotRun = (reason: string) => couldNotRunReport(base, reason);
  if (whyNot.service !== undefined) {
    const also =
      whyNot.mock === undefined ? '' : `; the mock could not run either: ${inSideNames(whyNot.mock, 'mock')}`;
    return couldNotRun(`the service could not run: ${whyNot.service}${also}`);
  }
  if (whyNot.mock === undefined) return undefined;
  const named = atPreflight ? styleSettingsNamed(whyNot.mock, 'mock') : [];
  if (named.length === 0) return couldNotRun(`the mock could not run: ${inSideNames(whyNot.mock, 'mock')}`);
  return {
    ...base,
    verdict: 'drifted',
    exitCode: EXIT.failed,
    compared: { tests: 0, steps: 0 },
    differences: [settingDifference(named, inSideNames(whyNot.mock, 'mock'), configs)],
    rules: catalogue.map((rule) => ({
      id: rule.id,
      level: rule.level,
      title: rule.title,
      service: serviceStatus(rule.id),
      mock: 'not run',
    })),
  };
}

/**
 * Drift's own preflight of both targets, before either run starts, refused one of them (`whyNot`): the
 * report from what the preflights said, with no run on either target.
 */
export function preflightRefusalReport(
  facts: { startedAt: Date; seed: number; configs: Record<Side, TargetConfig> },
  whyNot: Record<Side, string | undefined>,
): DriftReport {
  const summary = (side: Side): SideSummary => ({
    baseUrl: facts.configs[side].baseUrl,
    verdict: whyNot[side] === undefined ? 'not run (its preflight passed)' : 'could-not-run (at its preflight)',
    exitCode: null,
    reportsDir: '',
  });
  const base = reportBase(facts, { service: summary('service'), mock: summary('mock') });
  const report = refusal(base, whyNot, true, facts.configs, () => 'not run');
  if (report === undefined) throw new Error('preflightRefusalReport needs a side that was refused');
  return report;
}

/**
 * The mock stopped at its preflight on a setting the service took: the difference is the setting. The
 * preflight's first request is given for both targets to replay: the list read it starts with.
 */
function settingDifference(named: string[], reason: string, configs: Record<Side, TargetConfig>): Difference {
  const listRead = (side: Side): ShownExchange => {
    const config = configs[side];
    const exchange: Exchange = {
      method: 'GET',
      url: `${config.baseUrl}/admin/api/${config.apiVersion}/zones.json`,
      auth: 'valid',
      requestHeaders: { accept: 'application/json' },
      responseHeaders: {},
      responseBody: '',
      durationMs: 0,
    };
    // Each command reads its own target's token, under the name the operator keeps it in.
    return { line: `GET ${exchange.url}`, curl: curlCommand(exchange, config, undefined, OPERATOR_PREFIX[side]) };
  };
  const operation = /\bPOST\b/.test(reason) ? 'create' : 'list';
  return {
    operation,
    operations: [operation],
    aspect: 'setting',
    subject: named.join(', '),
    case: 'the preflight, before any test: the mock does not take the settings the service took',
    service: 'takes these settings (its preflight passed)',
    mock: reason,
    count: 1,
    cases: ['the preflight'],
    exchanges: { service: listRead('service'), mock: listRead('mock') },
  };
}
