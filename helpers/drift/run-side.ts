// What one of drift's two conformance runs left in its reports folder: its certificate (or why it
// could not run) and every test's exchanges, read back for the comparison.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestExchanges } from '../evidence/exchange-detail.ts';
import type { ConformanceJson } from '../report/certificate.ts';
import type { RunSide } from './differences.ts';

const EXCHANGES_FILE = 'exchanges.jsonl';

export function exchangesPath(reportsDir: string): string {
  return join(reportsDir, EXCHANGES_FILE);
}

/** The certificate the run wrote, if it wrote one. */
export function readCertificate(reportsDir: string): ConformanceJson | undefined {
  const path = join(reportsDir, 'conformance.json');
  if (!existsSync(path)) return undefined;
  return JSON.parse(readFileSync(path, 'utf8')) as ConformanceJson;
}

/** The tests of a run that ran, with their exchanges and the rules' verdicts. */
export function readRunSide(reportsDir: string, certificate: ConformanceJson): RunSide {
  const path = exchangesPath(reportsDir);
  const tests = existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as TestExchanges)
    : [];
  const rules = 'rules' in certificate ? certificate.rules.map((rule) => ({ id: rule.id, status: rule.status })) : [];
  return { tests, rules, runId: 'runId' in certificate ? certificate.runId : '' };
}
