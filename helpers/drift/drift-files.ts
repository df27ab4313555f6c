// Writes drift.json, drift.md and drift.html into the reports folder, each masked for both tokens.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Secrets } from '../evidence/secrets.ts';
import { renderDriftMarkdown } from './drift-markdown.ts';
import { renderDriftPage } from './drift-page.ts';
import type { DriftReport } from './drift-report.ts';

const DRIFT_FILES = ['drift.json', 'drift.md', 'drift.html'] as const;

/** A drift run that stops before its reports must not leave the last run's to be read as its own. */
export function removePreviousDriftReports(reportsDir: string): void {
  for (const name of DRIFT_FILES) rmSync(join(reportsDir, name), { force: true });
}

export function writeDriftReports(report: DriftReport, reportsDir: string, secrets: Secrets): string[] {
  mkdirSync(reportsDir, { recursive: true });
  const masked = secrets.maskAll(report);
  const texts = [`${JSON.stringify(masked, null, 2)}\n`, renderDriftMarkdown(masked), renderDriftPage(masked)];
  return DRIFT_FILES.map((name, index) => {
    const path = join(reportsDir, name);
    writeFileSync(path, texts[index]!);
    return path;
  });
}
