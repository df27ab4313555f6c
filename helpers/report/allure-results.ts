// The Allure results are written by allure-vitest from inside the test workers, beyond the reach of
// the report writers: its steps quote the values each check was given, and those are the answers as
// the target sent them. So once the run is over, its files go through the same masker as every report.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Secrets } from '../target/secrets.ts';

export function allureResultsDir(reportsDir: string): string {
  return join(reportsDir, 'allure-results');
}

export function maskAllureResults(reportsDir: string, secrets: Secrets): void {
  const dir = allureResultsDir(reportsDir);
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const text = readFileSync(path, 'utf8');
    const masked = secrets.mask(text);
    // Only a file that holds a secret is rewritten; the rest stay byte for byte as allure wrote them.
    if (masked !== text) writeFileSync(path, masked);
  }
}
