// Drift's preflights of both targets and the report they give, in process: what bin/drift.ts does before
// either run starts (readDriftTargets, preflightBoth, preflightRefusalReport), with the settings runDrift
// passes its child. For the cases that only differ in the report; the launcher that writes it and exits
// with its code is run for real once per exit path in selftest/drift-settings.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderDriftMarkdown, verdictLine } from '../../helpers/drift/drift-files.ts';
import { type DriftReport, preflightRefusalReport } from '../../helpers/drift/drift-report.ts';
import { preflightBoth } from '../../helpers/drift/side-runs.ts';
import type { RunningReference } from '../../reference/server.ts';
import { driftSecrets, driftSettings, driftTargets } from './drift-run.ts';

export interface PreflightRefusal {
  report: DriftReport;
  markdown: string;
  /** What drift prints as its verdict (to stderr when it could not run). */
  line: string;
}

/** Drift's preflights of the service and its mock; fails when both pass, for then drift would start its runs. */
export async function refusedAtPreflight(
  service: Pick<RunningReference, 'url' | 'token' | 'style'>,
  mock: { url: string; token: string },
): Promise<PreflightRefusal> {
  const startedAt = new Date();
  // The preflights' ledgers go to a folder of the test's own, never into the project's reports/.
  const configs = driftTargets({
    ...driftSettings(service, mock, mkdtempSync(join(tmpdir(), 'zc-drift-preflights-'))),
    ZONES_MODEL_SEED: '1',
  });
  const secrets = driftSecrets(configs, mock.token);
  const refusals = await preflightBoth(configs, secrets);
  const report = preflightRefusalReport(
    { startedAt, seed: configs.service.model.seed!, configs },
    secrets.maskAll(refusals),
  );
  return { report, markdown: renderDriftMarkdown(report), line: secrets.mask(verdictLine(report)) };
}
