// Certifies every gallery target in one vitest run and condenses what each got, for the self-test
// and the kill matrix.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTargetConfig } from '../../helpers/config.ts';
import type { ConformanceReport } from '../../helpers/report/certificate.ts';
import { bystanderUntouched, storedZoneText } from './bystander.ts';
import { certifyMany } from './certify-many.ts';
import { type GalleryTarget, plantBystanders, startGallery, stopGallery } from './targets.ts';

export interface GalleryResult {
  name: string;
  kind: 'correct' | 'mutant' | 'fixture';
  breaks: string[];
  /** A mutant that only a sequence shows (reference/faults.ts). */
  sequence: boolean;
  description: string;
  verdict: string;
  exitCode: number;
  failedMust: string[];
  failedShould: string[];
  /** Robustness probes that warned: advice for the shop, never a reason to change its verdict. */
  failedMay: string[];
  notVerified: string[];
  suiteErrors: string[];
  leftBehind: { id: string; reason: string }[];
  requests: number;
  tests: number;
  /** Titles of the tests of each rule: the link between catalogue and suites. */
  testsByRule: Record<string, string[]>;
  /** What the settings made each rule's tests check with (which booked zone, say), beside the titles. */
  checkedWithByRule: Record<string, string[]>;
  /** Whether the zone of somebody else's, planted before the run, is exactly as it was. */
  bystanderUntouched: boolean;
  /** For ZONES_BOOKED_ZONE_ID: whether that zone is stored exactly as it was before the run. */
  bookedZoneUnchanged?: boolean;
  /** Titles of the MUST tests that failed: which test caught the defect, for the test-necessity check. */
  failedMustTests: string[];
  /** The failure messages of the declared rules, for a reader of the matrix. */
  evidence: Record<string, string>;
}

export interface GalleryRun {
  seconds: number;
  results: GalleryResult[];
}

export async function runGallery(options: { mutants?: boolean } = {}): Promise<GalleryRun> {
  const reportsDir = mkdtempSync(join(tmpdir(), 'zc-gallery-'));
  const base = readTargetConfig({ ZONES_REPORTS_DIR: reportsDir });
  const targets = await startGallery(base, options);
  try {
    plantBystanders(targets);
    const started = Date.now();
    const reports = await certifyMany(
      targets.map((t) => ({ name: t.name, config: t.config })),
      {
        // Two workers go from target to target, each target's suites in one of them (one module,
        // all-suites.gallery.ts, loaded again for every target). On two cores, measured: 1 worker
        // 35.5 s (42 s of CPU), 2 workers 24.9 s (42.5 s), 3 workers 28.5 s (51.5 s), 4 workers 27-29 s (49-53 s).
        workers: 2,
        include: ['selftest/gallery/all-suites.gallery.ts'],
      },
    );
    const results: GalleryResult[] = [];
    for (const target of targets) results.push(condense(target, reports.get(target.name)!));
    return { seconds: Math.round((Date.now() - started) / 100) / 10, results };
  } finally {
    await stopGallery(targets);
  }
}

function condense(target: GalleryTarget, report: ConformanceReport): GalleryResult {
  const ids = (level: string, status: string) =>
    report.rules.filter((r) => r.level === level && r.status === status).map((r) => r.id);
  return {
    name: target.name,
    kind: target.kind,
    breaks: target.breaks,
    sequence: target.sequence,
    description: target.description,
    verdict: report.verdict,
    exitCode: report.exitCode,
    failedMust: ids('must', 'failed'),
    failedShould: ids('should', 'warning'),
    failedMay: ids('may', 'warning'),
    notVerified: report.rules.filter((r) => r.status === 'not-verified').map((r) => `${r.id}: ${r.reason}`),
    suiteErrors: report.suiteErrors,
    leftBehind: report.cleanup.leftBehind,
    requests: report.requests.total,
    tests: report.rules.reduce((sum, rule) => sum + rule.tests.length, 0),
    testsByRule: Object.fromEntries(report.rules.map((r) => [r.id, r.tests.map((t) => t.title)])),
    checkedWithByRule: Object.fromEntries(report.rules.map((r) => [r.id, r.tests.flatMap((t) => t.checkedWith ?? [])])),
    bystanderUntouched: bystanderUntouched(target.reference, target.bystander),
    bookedZoneUnchanged: target.config.bookedZoneId
      ? storedZoneText(target.reference, target.config.bookedZoneId) === target.bookedZoneBefore
      : undefined,
    failedMustTests: report.rules
      .filter((r) => r.level === 'must')
      .flatMap((r) => r.tests.filter((t) => t.state === 'failed').map((t) => t.title)),
    evidence: Object.fromEntries(
      report.rules.filter((r) => target.breaks.includes(r.id)).map((r) => [r.id, r.reason ?? '']),
    ),
  };
}
