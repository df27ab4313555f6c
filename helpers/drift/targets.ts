// Drift's two targets from one set of settings: the service (ZONES_BASE_URL, ZONES_ACCESS_TOKEN) and
// the mock (ZONES_MOCK_BASE_URL, ZONES_MOCK_ACCESS_TOKEN). Each run gets every other setting the same,
// so that a mock which needs other settings than its service is found to differ, not configured away.
import { join } from 'node:path';
import { ConfigError, type Environment, readTargetConfig } from '../config.ts';
import { operatorVariable } from '../evidence/replay.ts';
import { TOKEN_REJECTED } from '../runner/preflight.ts';
import { settingDefault } from '../settings.ts';

export type Side = 'service' | 'mock';
export const SIDES: readonly Side[] = ['service', 'mock'];

/** One value for each side, in the order drift writes them: the service's, then the mock's. */
export function bySide<T>(value: (side: Side) => T): Record<Side, T> {
  return { service: value('service'), mock: value('mock') };
}

/** How the operator's shell names each target's own address and token: the names' prefix (replay.ts). */
export const OPERATOR_PREFIX: Record<Side, string> = { service: 'ZONES_', mock: 'ZONES_MOCK_' };

/**
 * Settings about reaching one target or one run's patience, not how the shop spells its interface: a mock that stops
 * on one of these could not be compared (exit 3); on any other it needs another setting than its service, a difference.
 */
const REACHING = new Set([
  'ZONES_BASE_URL',
  'ZONES_ACCESS_TOKEN',
  'ZONES_CA_FILE',
  'ZONES_TLS_INSECURE',
  'ZONES_TIMEOUT_MS',
  'ZONES_MAX_BODY_BYTES',
  'ZONES_OUTAGE_BUDGET_MS',
  'ZONES_REPORTS_DIR',
]);

/** Where each run writes: its own folder under the reports folder, beside drift.json. */
export function sideReportsDir(reportsDir: string, side: Side): string {
  return join(reportsDir, 'drift', side);
}

/** Where a run records every exchange of every test (`--record-exchanges`), in its reports folder. */
export function exchangesPath(reportsDir: string): string {
  return join(reportsDir, 'exchanges.jsonl');
}

/** The environment a side's conformance run gets: the one set of settings, with that side's address and token. */
export function sideEnvironment(env: Environment, side: Side, reportsDir: string): Environment {
  const out: Environment = { ...env };
  delete out.ZONES_MOCK_BASE_URL;
  delete out.ZONES_MOCK_ACCESS_TOKEN;
  out.ZONES_BASE_URL = env[operatorVariable('BASE_URL', OPERATOR_PREFIX[side])];
  out.ZONES_ACCESS_TOKEN = env[operatorVariable('ACCESS_TOKEN', OPERATOR_PREFIX[side])];
  out.ZONES_REPORTS_DIR = sideReportsDir(reportsDir, side);
  return out;
}

/** Both targets' settings, read and checked as a run reads them; why drift cannot run, naming target and setting, to `refuse`. */
export function readDriftTargets(env: Environment, refuse: (reason: string) => never) {
  const missing = [
    ['ZONES_BASE_URL', 'the service'],
    ['ZONES_MOCK_BASE_URL', 'the mock'],
  ].filter(([name]) => (env[name!] ?? '').trim() === '');
  if (missing.length > 0)
    refuse(
      `drift compares two targets and needs both: ${missing.map(([name, what]) => `${name} (${what})`).join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not set`,
    );
  const reportsDir = env.ZONES_REPORTS_DIR?.trim() || settingDefault('ZONES_REPORTS_DIR');
  const configs = bySide((side) => {
    try {
      return readTargetConfig(sideEnvironment(env, side, reportsDir));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      const problems = error.problems.map((problem) => inSideNames(problem, side));
      return refuse(`bad settings for the ${side}: ${problems.join('; ')}`);
    }
  });
  return { ...configs, reportsDir };
}

/**
 * A message of the mock's run, with the names of its own settings as the operator set them. A name being assigned is
 * left alone: the run writes such commands for the operator already (`ZONES_BASE_URL="$ZONES_MOCK_BASE_URL" npx
 * zones-conformance sweep ...`), and renamed, one would set the mock's variables and sweep the service.
 */
export function inSideNames(text: string, side: Side): string {
  if (side === 'service') return text;
  return text.replace(/\bZONES_(BASE_URL|ACCESS_TOKEN)\b(?!=)/g, (_, name: string) => `ZONES_MOCK_${name}`);
}

/**
 * The settings of how the shop spells its interface that a mock's could-not-run reason names (in the mock's names): none
 * when it rejects its token, which is the operator's to fix (ZONES_MOCK_ACCESS_TOKEN), not a way the mock differs.
 */
export function styleSettingsNamed(reason: string): string[] {
  if (reason.includes(TOKEN_REJECTED)) return [];
  const named = new Set([...reason.matchAll(/\bZONES_[A-Z_]+\b/g)].map((match) => match[0]));
  return [...named].filter((name) => !REACHING.has(name.replace(/^ZONES_MOCK_/, 'ZONES_')));
}
