// A run that cannot start still leaves every report, saying could-not-run and why: a CI server that keeps its
// workspace would otherwise publish the previous run's reports as this one's. write-reports.ts writes them.
import type { TargetConfig } from '../config.ts';
import { Secrets } from '../evidence/secrets.ts';
import { EXIT } from '../exit-codes.ts';
import { SPEC_VERSION } from '../rules.ts';
import { settingDefault } from '../settings.ts';
import type { CouldNotRunReport } from './certificate.ts';
import { setAsideReports } from './previous-reports.ts';
import { type WrittenReports, writeReports } from './write-reports.ts';

/** Where to write, what to keep out of the files, and what the target is, as far as the launcher got. */
export type LauncherFacts = ReturnType<typeof factsFromConfig>;

/** Before the settings are validated (or when they never will be): their raw values, else the defaults. */
export function factsFromRawSettings(env: Record<string, string | undefined>): LauncherFacts {
  const raw = (name: string) => env[name]?.trim() ?? '';
  return {
    reportsDir: raw('ZONES_REPORTS_DIR') || settingDefault('ZONES_REPORTS_DIR'),
    token: raw('ZONES_ACCESS_TOKEN'),
    baseUrl: withoutUserInfo(raw('ZONES_BASE_URL')).replace(/\/+$/, '') || null,
  };
}

/** An address as a report may show it before the settings are checked: without a user name and password, URL or not. */
export function withoutUserInfo(address: string): string {
  return address.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, '$1');
}

export function factsFromConfig(config: TargetConfig) {
  return { reportsDir: config.reportsDir, token: config.token, baseUrl: config.baseUrl || null };
}

export function buildCouldNotRun(reason: string, startedAt: Date, baseUrl: string | null): CouldNotRunReport {
  return {
    suite: 'zones-conformance',
    specification: `Zone Management Service, API version ${SPEC_VERSION}`,
    verdict: 'could-not-run',
    exitCode: EXIT.cannotRun,
    reason,
    startedAt: startedAt.toISOString(),
    finishedAt: new Date().toISOString(),
    target: { baseUrl },
  };
}

/** The could-not-run certificate, written as every run's reports are, over whatever an earlier run left. */
export function writeCouldNotRun(report: CouldNotRunReport, facts: LauncherFacts): WrittenReports {
  setAsideReports(facts.reportsDir);
  return writeReports(report, { reportsDir: facts.reportsDir, secrets: new Secrets(facts), warn: () => {} });
}
