// The drift verdict from the two runs: same, drifted, or could not run (naming the target). A mock that stops at
// its preflight on a setting that describes the shop (its envelope, its auth header) did not fail to run: it needs
// another setting than the service, the first difference a team wants to know of.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TargetConfig } from '../config.ts';
import type { TestExchanges } from '../evidence/exchange-detail.ts';
import { curlCommand } from '../evidence/replay.ts';
import { EXIT } from '../exit-codes.ts';
import type { ConformanceJson, ConformanceReport } from '../report/certificate.ts';
import { rules as catalogue, ruleById, SPEC_VERSION } from '../rules.ts';
import { compareRuns, type Difference, type RunSide, type ShownExchange } from './differences.ts';
import { mockSettingOf } from './mock-setting.ts';
import type { SideRun } from './side-runs.ts';
import { bySide, exchangesPath, inSideNames, OPERATOR_PREFIX, type Side, styleSettingsNamed } from './targets.ts';

/** A target, its conformance run's own verdict (conformant... or could-not-run) and exit code, and where that run's reports are. */
export interface SideSummary {
  baseUrl: string;
  verdict: string;
  exitCode: number | null;
  reportsDir: string;
}

export interface DriftReport {
  tool: 'zones-conformance drift';
  specification: string;
  verdict: 'same' | 'drifted' | 'could-not-run';
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
  /** Zones each run could not delete, each with the command that sweeps it from the drift shell (the mock's names the mock's variables). */
  leftBehind: Record<Side, ConformanceReport['leftBehind']>;
}

type RanCertificate = Extract<ConformanceJson, { rules: unknown }>;

/** The certificate the run wrote, if it wrote one. */
export function readCertificate(reportsDir: string): ConformanceJson | undefined {
  const path = join(reportsDir, 'conformance.json');
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as ConformanceJson;
}

/** The tests of a run that ran, with their exchanges and the rules' verdicts. */
export function readRunSide(reportsDir: string, certificate: ConformanceJson): RunSide {
  const path = exchangesPath(reportsDir);
  const lines = existsSync(path) ? readFileSync(path, 'utf8').split('\n') : [];
  const tests = lines.filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as TestExchanges);
  const rules = 'rules' in certificate ? certificate.rules.map((rule) => ({ id: rule.id, status: rule.status })) : [];
  return { tests, rules, runId: 'runId' in certificate ? certificate.runId : '' };
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

function ruleRow(id: string, service: string, mock: string): DriftReport['rules'][number] {
  const { level, title } = ruleById(id);
  return { id, level, title, service, mock };
}

/** A target and its run's verdict; without a run, what it got to instead. */
export function sideSummary(baseUrl: string, verdict: string, run?: SideRun): SideSummary {
  return { baseUrl, verdict, exitCode: run?.code ?? null, reportsDir: run?.reportsDir ?? '' };
}

const EXIT_OF = { same: EXIT.ok, drifted: EXIT.failed, 'could-not-run': EXIT.cannotRun } as const;

/** When, with which seed, of which targets, and what each run left behind: nothing unless told, as when neither run started. */
type ReportFacts = Pick<DriftReport, 'seed' | 'targets'> & { startedAt: Date; leftBehind?: DriftReport['leftBehind'] };

/** Every drift report, finished now; its verdict is what was found: why there is no comparison, or the differences, if any. */
export function driftReport(
  facts: ReportFacts,
  found: { reason: string } | Pick<DriftReport, 'compared' | 'differences' | 'rules'>,
): DriftReport {
  const verdict = 'reason' in found ? 'could-not-run' : found.differences.length > 0 ? 'drifted' : 'same';
  return {
    tool: 'zones-conformance drift',
    specification: `Zone Management Service, API version ${SPEC_VERSION}`,
    startedAt: facts.startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    seed: facts.seed,
    targets: facts.targets,
    leftBehind: facts.leftBehind ?? { service: [], mock: [] },
    verdict,
    exitCode: EXIT_OF[verdict],
    ...('reason' in found
      ? { reason: found.reason, compared: { tests: 0, steps: 0 }, differences: [], rules: [] }
      : found),
  };
}

type DriftFacts = { startedAt: Date; seed: number; configs: Record<Side, TargetConfig> };

export function buildDriftReport(given: DriftFacts & { runs: readonly SideRun[] }): DriftReport {
  const { configs } = given;
  const runs = bySide((side) => given.runs.find((run) => run.side === side)!);
  const certificates = bySide((side) => readCertificate(runs[side].reportsDir));
  const facts = {
    ...given,
    targets: bySide((side) =>
      sideSummary(configs[side].baseUrl, certificates[side]?.verdict ?? 'no report', runs[side]),
    ),
    // What a run's certificate says it left behind; nothing when it wrote none, or could not run.
    leftBehind: bySide((side) => {
      const certificate = certificates[side];
      return certificate !== undefined && 'leftBehind' in certificate ? certificate.leftBehind : [];
    }),
  };
  const whyNot = bySide((side) => whyNoRun(runs[side], certificates[side]));
  const onService = (id: string) =>
    (certificates.service as RanCertificate).rules.find((rule) => rule.id === id)?.status ?? 'not run';
  const refused = refusal(facts, whyNot, configs, onService);
  if (refused) return refused;

  const sides = bySide((side) => readRunSide(runs[side].reportsDir, certificates[side] as RanCertificate));
  const comparison = compareRuns(sides.service, sides.mock, configs.service);
  if (comparison.comparedSteps === 0)
    return driftReport(facts, {
      reason:
        "no step was compared: the runs recorded no exchanges both targets answered (is the exchanges file written? see the runs' own reports)",
    });
  // What npm run mock's profile would set each away with, where its "mock" section can.
  const differences = comparison.differences.map((difference) => {
    const setting = mockSettingOf(difference, configs.service);
    return setting ? { ...difference, mock_setting: setting } : difference;
  });
  return driftReport(facts, {
    compared: { tests: comparison.comparedTests, steps: comparison.comparedSteps },
    differences,
    rules: comparison.rules.map((rule) => ruleRow(rule.rule, rule.service, rule.mock)),
  });
}

/**
 * The report when a side could not run: could-not-run naming it, unless only the mock did, for a setting that describes
 * the shop (only a preflight's or the settings' reason names one): then the setting is the difference (exit 1).
 */
function refusal(
  facts: ReportFacts,
  whyNot: Record<Side, string | undefined>,
  configs: Record<Side, TargetConfig>,
  serviceStatus: (rule: string) => string,
): DriftReport | undefined {
  if (whyNot.service !== undefined) {
    const also =
      whyNot.mock === undefined ? '' : `; the mock could not run either: ${inSideNames(whyNot.mock, 'mock')}`;
    return driftReport(facts, { reason: `the service could not run: ${whyNot.service}${also}` });
  }
  if (whyNot.mock === undefined) return undefined;
  const reason = inSideNames(whyNot.mock, 'mock');
  const named = styleSettingsNamed(reason);
  if (named.length === 0) return driftReport(facts, { reason: `the mock could not run: ${reason}` });
  // The preflight's first request, the list read it starts with, for each target to replay with its own token.
  const listRead = (side: Side): ShownExchange => {
    const config = configs[side];
    const url = `${config.baseUrl}/admin/api/${config.apiVersion}/zones.json`;
    const exchange = { method: 'GET', url, auth: 'valid', requestHeaders: { accept: 'application/json' } } as const;
    return { line: `GET ${url}`, curl: curlCommand(exchange, config, undefined, OPERATOR_PREFIX[side]) };
  };
  const operation = /\bPOST\b/.test(reason) ? 'create' : 'list';
  const setting: Difference = {
    operation,
    operations: [operation],
    aspect: 'setting',
    subject: named.join(', '),
    case: 'the preflight, before any test: the mock does not take the settings the service took',
    service: 'takes these settings (its preflight passed)',
    mock: reason,
    count: 1,
    cases: ['the preflight'],
    exchanges: bySide(listRead),
  };
  const rules = catalogue.map((rule) => ruleRow(rule.id, serviceStatus(rule.id), 'not run'));
  return driftReport(facts, { compared: { tests: 0, steps: 0 }, differences: [setting], rules });
}

/** The report when drift's own preflight of both targets refused one of them (`whyNot`), before either run started. */
export function preflightRefusalReport(facts: DriftFacts, whyNot: Record<Side, string | undefined>): DriftReport {
  // A mock that cannot be reached or rejects its token is known before the service is asked anything.
  const untried = whyNot.mock !== undefined && styleSettingsNamed(inSideNames(whyNot.mock, 'mock')).length === 0;
  const passed = (side: Side) =>
    side === 'service' && untried ? 'not run (not asked: the mock could not run)' : 'not run (its preflight passed)';
  const verdict = (side: Side) => (whyNot[side] === undefined ? passed(side) : 'could-not-run (at its preflight)');
  const targets = bySide((side) => sideSummary(facts.configs[side].baseUrl, verdict(side)));
  const report = refusal({ ...facts, targets }, whyNot, facts.configs, () => 'not run');
  if (report === undefined) throw new Error('preflightRefusalReport needs a side that was refused');
  return report;
}
