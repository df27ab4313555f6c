// Certifies every gallery target in one vitest run and writes what each got, as JSON, for the
// self-test and the kill matrix. A separate process: the suite's own vitest run cannot nest inside
// the self-test's. Usage: tsx selftest/gallery/run-gallery.ts OUT.json [--no-mutants]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { certify } from '../../helpers/certify.ts';
import { readTargetConfig } from '../../helpers/config.ts';
import { startGallery, stopGallery } from './targets.ts';

export interface GalleryResult {
  name: string;
  kind: 'correct' | 'mutant';
  breaks: string[];
  description: string;
  verdict: string;
  exitCode: number;
  failedMust: string[];
  failedShould: string[];
  notVerified: string[];
  suiteErrors: string[];
  leftBehind: { id: string; reason: string }[];
  requests: number;
  tests: number;
  /** The failure messages of the declared rules, for a reader of the matrix. */
  evidence: Record<string, string>;
}

const [out, ...flags] = process.argv.slice(2);
if (!out) {
  console.error('usage: run-gallery.ts OUT.json [--no-mutants]');
  process.exit(3);
}

const reportsDir = mkdtempSync(join(tmpdir(), 'zc-gallery-'));
const base = readTargetConfig({ ZONES_REPORTS_DIR: reportsDir });
const targets = await startGallery(base, { mutants: !flags.includes('--no-mutants') });
try {
  const started = Date.now();
  const reports = await certify(targets.map((t) => ({ name: t.name, config: t.config })), { maxWorkers: Number(process.env.GALLERY_WORKERS ?? 4), include: ['selftest/gallery/all-suites.gallery.ts'] });
  const results: GalleryResult[] = targets.map((target) => {
    const report = reports.get(target.name)!;
    const ids = (level: string, status: string) => report.rules.filter((r) => r.level === level && r.status === status).map((r) => r.id);
    return {
      name: target.name,
      kind: target.kind,
      breaks: target.breaks,
      description: target.description,
      verdict: report.verdict,
      exitCode: report.exitCode,
      failedMust: ids('must', 'failed'),
      failedShould: ids('should', 'failed'),
      notVerified: report.rules.filter((r) => r.status === 'not-verified').map((r) => `${r.id}: ${r.reason}`),
      suiteErrors: report.suiteErrors,
      leftBehind: report.cleanup.leftBehind,
      requests: report.requests.total,
      tests: report.rules.reduce((sum, rule) => sum + rule.tests.length, 0),
      evidence: Object.fromEntries(report.rules.filter((r) => target.breaks.includes(r.id)).map((r) => [r.id, r.reason ?? ''])),
    };
  });
  writeFileSync(out, `${JSON.stringify({ seconds: Math.round((Date.now() - started) / 100) / 10, results }, null, 2)}\n`);
} finally {
  await stopGallery(targets);
}
