// The drift gallery: the reference as the service, and each drift mutant (reference/drift-mutants.ts)
// as its mock. Each target's run is recorded once, all of them in one vitest run as the mutation gallery
// certifies its targets (certify-many.ts: two workers go from target to target, where a launcher run
// each paid vitest's start eleven times), and each mutant's run is compared with the service's by the
// comparer `npm run drift` uses (helpers/drift). Drift's own launcher, and its runs' --record-exchanges,
// are proven by selftest/drift.test.ts. The model-based suite is left out (ZONES_MODEL_RUNS=0): every
// mutant differs in an answer an example test already asks for, or in a rule an example test decides.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { settingsForStyle } from '../../bin/reference-settings.ts';
import { readTargetConfig } from '../../helpers/config.ts';
import { compareRuns, type Difference } from '../../helpers/drift/differences.ts';
import { readRunSide } from '../../helpers/drift/drift-report.ts';
import { exchangesPath } from '../../helpers/drift/targets.ts';
import { type DriftAspect, driftMutants } from '../../reference/drift-mutants.ts';
import { type RunningReference, startReference } from '../../reference/server.ts';
import { houseStyles } from '../../reference/styles.ts';
import { cell } from '../catalogue/between-markers.ts';
import { certifyMany } from '../gallery/certify-many.ts';

export interface DriftGalleryResult {
  name: string;
  description: string;
  aspect: DriftAspect;
  differences: Pick<Difference, 'aspect' | 'subject' | 'operations' | 'service' | 'mock' | 'verdicts'>[];
  /** Tests found in both runs, and steps compared in them: a comparison of nothing finds no difference either. */
  compared: { tests: number; steps: number };
  /** The mutant's own conformance run: its exit code, and the zones its store still holds afterwards. */
  exitCode: number | null;
  left: number;
}

const SEED = '20261126';
const SERVICE = 'service';

export async function runDriftGallery(): Promise<{ results: DriftGalleryResult[]; seconds: number }> {
  const started = Date.now();
  const style = houseStyles.default!;
  // Every target is spoken to with the service's settings: a mutant differs only where its style does.
  const settings = settingsForStyle(style, 'http://placeholder', 'placeholder');
  const config = readTargetConfig({ ...settings, ZONES_BASE_URL: 'http://127.0.0.1:1', ZONES_ACCESS_TOKEN: 'x' });
  const runsDir = mkdtempSync(join(tmpdir(), 'zc-drift-gallery-'));
  const names = [SERVICE, ...driftMutants.map((mutant) => mutant.name)];
  // Each run's reports folder, where its ledger and its exchanges go, as a launcher run's would.
  const reportsDirOf = (name: string) => join(runsDir, String(names.indexOf(name)));
  const references = new Map<string, RunningReference>();
  try {
    references.set(SERVICE, await startReference({ style }));
    for (const mutant of driftMutants)
      references.set(mutant.name, await startReference({ style: mutant.style, fault: mutant.fault }));
    const targets = names.map((name) => {
      const reference = references.get(name)!;
      mkdirSync(reportsDirOf(name));
      const env = {
        ...settings,
        ZONES_BASE_URL: reference.url,
        ZONES_ACCESS_TOKEN: reference.token,
        ZONES_MODEL_RUNS: '0',
        ZONES_MODEL_SEED: SEED,
        ZONES_REPORTS_DIR: reportsDirOf(name),
      };
      return { name, config: readTargetConfig(env) };
    });
    const reports = await certifyMany(targets, {
      workers: 2,
      include: ['selftest/gallery/all-suites.gallery.ts'],
      recordExchanges: (name) => exchangesPath(reportsDirOf(name)),
    });
    const sideOf = (name: string) => readRunSide(reportsDirOf(name), reports.get(name)!);
    const serviceSide = sideOf(SERVICE);
    const results = driftMutants.map((mutant): DriftGalleryResult => {
      const comparison = compareRuns(serviceSide, sideOf(mutant.name), config);
      return {
        name: mutant.name,
        description: mutant.description,
        aspect: mutant.aspect,
        differences: comparison.differences.map(({ aspect, subject, operations, service: a, mock: b, verdicts }) => ({
          aspect,
          subject,
          operations,
          service: a,
          mock: b,
          verdicts,
        })),
        compared: { tests: comparison.comparedTests, steps: comparison.comparedSteps },
        exitCode: reports.get(mutant.name)!.exitCode,
        left: references.get(mutant.name)!.backdoor.all().length,
      };
    });
    return { results, seconds: Math.round((Date.now() - started) / 1000) };
  } finally {
    await Promise.all([...references.values()].map((reference) => reference.close()));
  }
}

/** docs/drift-matrix.md: each mutant and the differences drift found, with nothing that changes from run to run. */
export function renderDriftMatrix(results: readonly DriftGalleryResult[]): string {
  const lines = [
    '# Drift matrix',
    '',
    'Each drift mutant is the embedded reference with one behaviour changed where the specification is',
    'silent (reference/drift-mutants.ts), run as the mock against the reference as the service. Drift',
    'must find exactly one difference, under the aspect the mutant names. Generated by',
    '`npm run drift-matrix`; `selftest/drift-gallery.test.ts` fails when this file is out of date.',
    '',
    '| mutant | what it does | expected aspect | found | service | mock | verdicts that moved with it |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const result of results) {
    const found = result.differences.length === 0 ? [undefined] : result.differences;
    for (const difference of found) {
      const aspect =
        difference === undefined
          ? '**none**'
          : `${difference.aspect}${difference.subject ? ` (${difference.subject})` : ''} in ${difference.operations.join(', ')}`;
      const verdicts = (difference?.verdicts ?? []).map((v) => `${v.rule}: ${v.service} / ${v.mock}`).join('; ');
      lines.push(
        `| ${[result.name, result.description, result.aspect, aspect, difference?.service ?? '', difference?.mock ?? '', verdicts].map(cell).join(' | ')} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
