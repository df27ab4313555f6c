// Drift's report on two targets, for a test about what drift finds rather than how its launcher runs:
// both runs recorded in one vitest run (certify-many.ts), then drift's own report builder and writer on
// what they recorded. The same settings reach each side as under `npm run drift` (readDriftTargets), and
// the same reports come out (writeDriftReports, masked for both tokens); what is left out is the launcher
// with its two child runs, which selftest/drift.test.ts runs for real, at about twice the CPU.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bookingHooksForReference, settingsForStyle } from '../../bin/reference-settings.ts';
import { newModelSeed } from '../../helpers/config.ts';
import { writeDriftReports } from '../../helpers/drift/drift-files.ts';
import { buildDriftReport, type DriftReport } from '../../helpers/drift/drift-report.ts';
import { exchangesPath, readDriftTargets, SIDES } from '../../helpers/drift/targets.ts';
import { Secrets } from '../../helpers/evidence/secrets.ts';
import type { RunningReference } from '../../reference/server.ts';
import { certifyMany } from '../gallery/certify-many.ts';
import type { DriftRun } from './drift-run.ts';

/** What `npm run drift` wrote, as runDrift reads it, without a launcher run to show. */
export type RecordedDrift = Omit<DriftRun, 'run'>;

/** Drift of the mock from the service, with the service's settings; `env` adds or overrides settings. */
export async function recordedDrift(
  service: Pick<RunningReference, 'url' | 'token' | 'style'>,
  mock: { url: string; token: string },
  env: Record<string, string> = {},
): Promise<RecordedDrift> {
  const startedAt = new Date();
  const reportsDir = mkdtempSync(join(tmpdir(), 'zc-recorded-drift-'));
  const settings: Record<string, string> = {
    ...settingsForStyle(service.style, service.url, service.token),
    ...bookingHooksForReference(),
    ZONES_MOCK_BASE_URL: mock.url,
    ZONES_MOCK_ACCESS_TOKEN: mock.token,
    ZONES_REPORTS_DIR: reportsDir,
    // One seed for both, as drift draws it.
    ZONES_MODEL_SEED: String(newModelSeed()),
    ...env,
  };
  const configs = readDriftTargets(settings, (reason) => {
    throw new Error(`drift would not run: ${reason}`);
  });
  const sideDir = (side: string) => configs[side as (typeof SIDES)[number]].reportsDir;
  for (const side of SIDES) mkdirSync(sideDir(side), { recursive: true });
  const reports = await certifyMany(
    SIDES.map((side) => ({ name: side, config: configs[side] })),
    {
      workers: 2,
      include: ['selftest/gallery/all-suites.gallery.ts'],
      recordExchanges: (side) => exchangesPath(sideDir(side)),
    },
  );
  const runs = SIDES.map((side) => {
    const report = reports.get(side)!;
    writeFileSync(join(configs[side].reportsDir, 'conformance.json'), JSON.stringify(report));
    return { side, reportsDir: configs[side].reportsDir, code: report.exitCode, signal: null };
  });
  const seed = configs.service.model.seed!;
  const report = buildDriftReport({ startedAt, seed, runs, configs });
  const secrets = new Secrets({
    token: service.token,
    mockToken: mock.token,
    authHeader: configs.service.authHeader,
    authScheme: configs.service.authScheme,
  });
  writeDriftReports(report, reportsDir, secrets);
  const read = (name: string) => readFileSync(join(reportsDir, name), 'utf8');
  return {
    reportsDir,
    report: JSON.parse(read('drift.json')) as DriftReport,
    markdown: read('drift.md'),
    html: read('drift.html'),
  };
}
