// One generation kept: the last certificate (not a could-not-run one) moves to previous/, so a failed run never
// takes the last good one away, and `--baseline reports/previous/conformance.json` needs no CI cache.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export const PREVIOUS_FOLDER = 'previous';

/** Everything a run writes beside its ledgers and the nights histories, which are the earlier nights. */
const REPORT_FILES = [
  'conformance.html',
  'conformance.json',
  'conformance.md',
  'summary.md',
  'bodies',
  'junit.xml',
  'badge.svg',
  'allure-results',
  'allure-report',
];

/** Clears the way for a run's reports: the last certificate to previous/, anything else away. */
export function setAsideReports(reportsDir: string): void {
  const keep = judgedSomething(join(reportsDir, 'conformance.json'));
  const previous = join(reportsDir, PREVIOUS_FOLDER);
  if (keep) {
    rmSync(previous, { recursive: true, force: true });
    mkdirSync(previous, { recursive: true });
  }
  for (const name of REPORT_FILES) {
    const path = join(reportsDir, name);
    if (keep && existsSync(path)) renameSync(path, join(previous, name));
    else rmSync(path, { recursive: true, force: true });
  }
}

function judgedSomething(path: string): boolean {
  try {
    const verdict = (JSON.parse(readFileSync(path, 'utf8')) as { verdict?: unknown }).verdict;
    return typeof verdict === 'string' && verdict !== 'could-not-run';
  } catch {
    return false;
  }
}
