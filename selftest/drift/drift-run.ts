// `npm run drift` as a user runs it, through the installed command, against references started here:
// the service and its mock, one set of settings (the service's style), and what drift wrote.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bookingHooksForReference, settingsForStyle } from '../../bin/reference-settings.ts';
import type { DriftReport } from '../../helpers/drift/drift-report.ts';
import { readDriftTargets } from '../../helpers/drift/targets.ts';
import { Secrets } from '../../helpers/evidence/secrets.ts';
import type { RunningReference } from '../../reference/server.ts';
import { type ChildRun, projectRoot, runCommand } from '../run-node.ts';
import { filesUnder } from '../support/files-under.ts';

type DriftTargets = ReturnType<typeof readDriftTargets>;

export interface DriftRun {
  run: ChildRun;
  reportsDir: string;
  report: DriftReport;
  markdown: string;
  html: string;
}

/** The settings a drift of `mock` from `service` is given: the service's style and hooks, the mock's address and token. */
export function driftSettings(
  service: Pick<RunningReference, 'url' | 'token' | 'style'>,
  mock: { url: string; token: string },
  reportsDir: string,
): Record<string, string> {
  return {
    ...settingsForStyle(service.style, service.url, service.token),
    // Each run's hook books through its own target: the hooks name ZONES_BASE_URL, which each run has its own of.
    ...bookingHooksForReference(),
    ZONES_MOCK_BASE_URL: mock.url,
    ZONES_MOCK_ACCESS_TOKEN: mock.token,
    ZONES_REPORTS_DIR: reportsDir,
  };
}

/** Drift's two targets, read from its settings as bin/drift.ts reads them; a refusal fails the test that asked. */
export function driftTargets(settings: Record<string, string>): DriftTargets {
  return readDriftTargets(settings, (reason) => {
    throw new Error(`drift would not run: ${reason}`);
  });
}

/** What drift's reports mask: the service's token and the mock's, under the service's header. */
export function driftSecrets(targets: DriftTargets, mockToken: string): Secrets {
  const { token, authHeader, authScheme } = targets.service;
  return new Secrets({ token, mockToken, authHeader, authScheme });
}

/** Runs drift with the service's settings and the mock's address and token; `env` adds or overrides settings. */
export async function runDrift(
  service: Pick<RunningReference, 'url' | 'token' | 'style'>,
  mock: { url: string; token: string },
  env: Record<string, string | undefined> = {},
): Promise<DriftRun> {
  const reportsDir = mkdtempSync(join(tmpdir(), 'zc-drift-'));
  const run = await runCommand(process.execPath, ['bin/zones-conformance.mjs', 'drift'], {
    cwd: projectRoot,
    env: { ...driftSettings(service, mock, reportsDir), ...env },
  });
  const read = (name: string) => readFileSync(join(reportsDir, name), 'utf8');
  return {
    run,
    reportsDir,
    report: JSON.parse(read('drift.json')) as DriftReport,
    markdown: read('drift.md'),
    html: read('drift.html'),
  };
}

/** Every file under a folder, as text: for looking for what must never be written. */
export function everyFileText(dir: string): { path: string; text: string }[] {
  return filesUnder(dir).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
}
