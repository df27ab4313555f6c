// Drift's preflights of both targets and the report they give, in process: what bin/drift.ts does before
// either run starts (readDriftTargets, preflightBoth, preflightRefusalReport), with the settings runDrift
// passes its child. For the cases that only differ in the report; the launcher that writes it and exits
// with its code is run for real once per exit path in selftest/drift-settings.test.ts.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bookingHooksForReference, settingsForStyle } from '../../bin/reference-settings.ts';
import { renderDriftMarkdown, verdictLine } from '../../helpers/drift/drift-files.ts';
import { type DriftReport, preflightRefusalReport } from '../../helpers/drift/drift-report.ts';
import { preflightBoth } from '../../helpers/drift/side-runs.ts';
import { readDriftTargets } from '../../helpers/drift/targets.ts';
import { Secrets } from '../../helpers/evidence/secrets.ts';
import type { RunningReference } from '../../reference/server.ts';

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
  const configs = readDriftTargets(
    {
      ...settingsForStyle(service.style, service.url, service.token),
      ...bookingHooksForReference(),
      ZONES_MOCK_BASE_URL: mock.url,
      ZONES_MOCK_ACCESS_TOKEN: mock.token,
      // The preflights' ledgers go to a folder of the test's own, never into the project's reports/.
      ZONES_REPORTS_DIR: mkdtempSync(join(tmpdir(), 'zc-drift-preflights-')),
      ZONES_MODEL_SEED: '1',
    },
    (reason) => {
      throw new Error(`drift would not run: ${reason}`);
    },
  );
  const secrets = new Secrets({
    token: service.token,
    mockToken: mock.token,
    authHeader: configs.service.authHeader,
    authScheme: configs.service.authScheme,
  });
  const refusals = await preflightBoth(configs, secrets);
  const report = preflightRefusalReport(
    { startedAt, seed: configs.service.model.seed!, configs },
    secrets.maskAll(refusals),
  );
  return { report, markdown: renderDriftMarkdown(report), line: secrets.mask(verdictLine(report)) };
}
