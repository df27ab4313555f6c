// Drift's report on two targets, for a test about what drift finds rather than how its launcher runs:
// both runs recorded in one vitest run (certify-many.ts), then drift's own report builder and writer on
// what they recorded. The same settings reach each side as under `npm run drift` (readDriftTargets), and
// drift's own reports come out (writeDriftReports, masked for both tokens). What is left out is the launcher
// with its two child runs, which selftest/drift.test.ts runs for real, at about twice the CPU, and with it
// the mock run's --target-variables ZONES_MOCK_: here the mock side's replays and sweep name the service's
// variables, so which variables each side's commands read is drift.test.ts's to show.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newModelSeed } from '../../helpers/config.ts';
import { writeDriftReports } from '../../helpers/drift/drift-files.ts';
import { buildDriftReport, type DriftReport } from '../../helpers/drift/drift-report.ts';
import { exchangesPath, SIDES, type Side } from '../../helpers/drift/targets.ts';
import type { RunningReference } from '../../reference/server.ts';
import { certifyMany } from '../gallery/certify-many.ts';
import { type DriftRun, driftSecrets, driftSettings, driftTargets } from './drift-run.ts';

/** What `npm run drift` wrote, as runDrift reads it, without a launcher run to show. */
export type RecordedDrift = Omit<DriftRun, 'run'>;

/** A service and its mock, and the settings `env` adds to the service's or overrides. */
export interface DriftPair {
  service: Pick<RunningReference, 'url' | 'token' | 'style'>;
  mock: { url: string; token: string };
  env?: Record<string, string>;
}

/** Drift of the mock from the service, with the service's settings; `env` adds or overrides settings. */
export async function recordedDrift(
  service: DriftPair['service'],
  mock: DriftPair['mock'],
  env: Record<string, string> = {},
): Promise<RecordedDrift> {
  const [drift] = await recordedDrifts([{ service, mock, env }]);
  return drift!;
}

/**
 * Several pairs' drifts, every side of every pair certified in one vitest run: one start of vitest and its
 * workers for all of them. Each pair keeps its own settings, seed and reports folder, as its own drift would.
 */
export async function recordedDrifts(pairs: readonly DriftPair[]): Promise<RecordedDrift[]> {
  const startedAt = new Date();
  const prepared = pairs.map(({ service, mock, env = {} }) => {
    const reportsDir = mkdtempSync(join(tmpdir(), 'zc-recorded-drift-'));
    const settings = {
      ...driftSettings(service, mock, reportsDir),
      // One seed for both, as drift draws it.
      ZONES_MODEL_SEED: String(newModelSeed()),
      ...env,
    };
    const configs = driftTargets(settings);
    for (const side of SIDES) mkdirSync(configs[side].reportsDir, { recursive: true });
    return { service, mock, reportsDir, configs };
  });
  // A target's name says its pair and side; its reports go where that side's run would write them.
  const nameOf = (pair: number, side: Side) => `${pair}-${side}`;
  const byName = new Map(
    prepared.flatMap(({ configs }, pair) => SIDES.map((side) => [nameOf(pair, side), configs[side]])),
  );
  const reports = await certifyMany(
    [...byName].map(([name, config]) => ({ name, config })),
    {
      workers: 2,
      include: ['selftest/gallery/all-suites.gallery.ts'],
      recordExchanges: (name) => exchangesPath(byName.get(name)!.reportsDir),
    },
  );
  return prepared.map(({ mock, reportsDir, configs }, pair) => {
    const runs = SIDES.map((side) => {
      const report = reports.get(nameOf(pair, side))!;
      writeFileSync(join(configs[side].reportsDir, 'conformance.json'), JSON.stringify(report));
      return { side, reportsDir: configs[side].reportsDir, code: report.exitCode, signal: null };
    });
    const seed = configs.service.model.seed!;
    const report = buildDriftReport({ startedAt, seed, runs, configs });
    writeDriftReports(report, reportsDir, driftSecrets(configs, mock.token));
    const read = (name: string) => readFileSync(join(reportsDir, name), 'utf8');
    return {
      reportsDir,
      report: JSON.parse(read('drift.json')) as DriftReport,
      markdown: read('drift.md'),
      html: read('drift.html'),
    };
  });
}
