// The drift gallery: the reference as the service, and each drift mutant (reference/drift-mutants.ts)
// as its mock. The service's run is made once and each mutant's is compared with it by the comparer
// `npm run drift` uses (helpers/drift): drift's own launcher is proven by selftest/drift.test.ts, and
// a second service run per mutant would double the cost for nothing. The model-based suite is left out
// (ZONES_MODEL_RUNS=0): every mutant differs in an answer an example test already asks for, or in a
// rule an example test decides.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { settingsForStyle } from '../../bin/reference-settings.ts';
import { readTargetConfig } from '../../helpers/config.ts';
import { compareRuns, type Difference, type RunSide } from '../../helpers/drift/differences.ts';
import { readCertificate, readRunSide } from '../../helpers/drift/drift-report.ts';
import { exchangesPath } from '../../helpers/drift/targets.ts';
import { type DriftAspect, driftMutants } from '../../reference/drift-mutants.ts';
import { type RunningReference, startReference } from '../../reference/server.ts';
import { houseStyles } from '../../reference/styles.ts';
import { cell } from '../catalogue/between-markers.ts';
import { runEntry } from '../run-node.ts';

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
const TWO_AT_ONCE = 2;

/** One conformance run of a reference, recording every exchange; its reports folder. */
async function recordRun(
  reference: RunningReference,
  settings: Record<string, string>,
): Promise<{ dir: string; code: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'zc-drift-gallery-'));
  const recording = ['--record-exchanges', exchangesPath(dir)];
  const run = await runEntry('bin/conformance.ts', ['--quiet', `--seed=${SEED}`, ...recording], {
    ...settings,
    ZONES_BASE_URL: reference.url,
    ZONES_ACCESS_TOKEN: reference.token,
    ZONES_MODEL_RUNS: '0',
    ZONES_REPORTS_DIR: dir,
  });
  if (run.code === 3) throw new Error(`a drift gallery run could not run:\n${run.stderr}`);
  return { dir, code: run.code };
}

/** A run's recorded side, or an error that says which run wrote no certificate, how it ended and where its reports are. */
function recordedSide(run: { dir: string; code: number | null }, which: string): RunSide {
  const certificate = readCertificate(run.dir);
  if (certificate === undefined)
    throw new Error(
      `the drift gallery's run of ${which} ended (exit ${run.code}) without writing conformance.json in ${run.dir}`,
    );
  return readRunSide(run.dir, certificate);
}

export async function runDriftGallery(): Promise<{ results: DriftGalleryResult[]; seconds: number }> {
  const started = Date.now();
  const style = houseStyles.default!;
  // Every target is spoken to with the service's settings: a mutant differs only where its style does.
  const settings = settingsForStyle(style, 'http://placeholder', 'placeholder');
  const config = readTargetConfig({ ...settings, ZONES_BASE_URL: 'http://127.0.0.1:1', ZONES_ACCESS_TOKEN: 'x' });
  const service = await startReference({ style });
  const results: DriftGalleryResult[] = [];
  try {
    const serviceRun = await recordRun(service, settings);
    const serviceSide = recordedSide(serviceRun, 'the reference (the service)');
    const queue = [...driftMutants];
    const worker = async () => {
      for (let mutant = queue.shift(); mutant !== undefined; mutant = queue.shift()) {
        const mock = await startReference({ style: mutant.style, fault: mutant.fault });
        try {
          const mockRun = await recordRun(mock, settings);
          const comparison = compareRuns(serviceSide, recordedSide(mockRun, `the mutant ${mutant.name}`), config);
          results.push({
            name: mutant.name,
            description: mutant.description,
            aspect: mutant.aspect,
            differences: comparison.differences.map(
              ({ aspect, subject, operations, service: a, mock: b, verdicts }) => ({
                aspect,
                subject,
                operations,
                service: a,
                mock: b,
                verdicts,
              }),
            ),
            compared: { tests: comparison.comparedTests, steps: comparison.comparedSteps },
            exitCode: mockRun.code,
            left: mock.backdoor.all().length,
          });
        } finally {
          await mock.close();
        }
      }
    };
    await Promise.all(Array.from({ length: TWO_AT_ONCE }, worker));
  } finally {
    await service.close();
  }
  const order = driftMutants.map((mutant) => mutant.name);
  results.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  return { results, seconds: Math.round((Date.now() - started) / 1000) };
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
