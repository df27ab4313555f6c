// Many targets certified in one vitest run, for the gallery and the model-based suite's self-test:
// parallel across targets, never within one. Each target's preflight, sweep and report are the
// certification's own (helpers/runner/certify.ts); only the run in between differs. vitest never lends
// a worker of one project to another, so a project per target would start a worker per target (vitest,
// undici, ajv and fast-check loaded again), which costs the gallery more than its checks. The targets
// are therefore one project with a test file each (target-files.ts), and a few workers take the files
// one after another; each target still runs in one worker, one test at a time, with its own throttle.
import { fileURLToPath } from 'node:url';
import { projectRoot } from '../../helpers/project-root.ts';
import type { ConformanceReport } from '../../helpers/report/certificate.ts';
import {
  type CertifyTarget,
  concludeTarget,
  newRunId,
  type PreparedTarget,
  prepareTarget,
} from '../../helpers/runner/certify.ts';
import { OutcomeCollector } from '../../helpers/runner/collector.ts';
import { selectRules, testNamePatternFor } from '../../helpers/runner/rule-selection.ts';
import { runVitest, suiteProject, testTimeoutFor } from '../../helpers/runner/run-suites.ts';
import { writeTargetFiles } from './target-files.ts';

/** Where the suites and the harness import the run's one target from; here, a file's own. */
const FILE_TARGET = fileURLToPath(new URL('./file-target.ts', import.meta.url));

export async function certifyMany(
  targets: readonly CertifyTarget[],
  options: {
    include: string[];
    workers: number;
    /** Each target's exchanges, recorded as `--record-exchanges` records a run's, in the file named for it (drift's gallery). */
    recordExchanges?: (target: string) => string;
    /** The rules every target is checked on, as `--rule` names them; each report is then a partial run's, as the launcher's is. */
    rule?: string;
  },
): Promise<Map<string, ConformanceReport>> {
  const { recordExchanges, rule } = options;
  const selected = rule === undefined ? undefined : selectRules(rule);
  const startedAt = new Date();
  // Each target has its run id, as separate certifications would: one id for all would leave untested what
  // tells two runs' zones apart (drift names each side's zones by its own). Drawn until unlike the others,
  // so that two targets never share one by chance within the same second.
  const prepared: (PreparedTarget & { runId: string })[] = [];
  for (const target of targets) {
    let runId = newRunId();
    while (prepared.some((other) => other.runId === runId)) runId = newRunId();
    prepared.push({ ...(await prepareTarget(target, { runId, ledgerName: target.name })), runId });
  }
  const files = writeTargetFiles(prepared, projectRoot, options.include);
  try {
    const project = suiteProject({
      name: 'targets',
      include: ['*.target.test.ts'],
      // The workers only ask whether the run records; each target's file is the recorder's (below).
      provide: { zonesTargets: files.provided, ...(recordExchanges ? { recordExchanges: 'by target' } : {}) },
      timeoutMs: Math.max(...prepared.map((target) => testTimeoutFor(target.config))),
    });
    const run = await runVitest({
      projects: [
        {
          ...project,
          // Every import of the run's one target, by whatever relative path, is the file's target.
          resolve: { alias: [{ find: /^.*\/current-target\.ts$/, replacement: FILE_TARGET }] },
          test: { ...project.test, dir: files.dir },
        },
      ],
      // Each test's exchanges into its target's file, as --record-exchanges writes a run's.
      collector: new OutcomeCollector(undefined, files.targetOf, recordExchanges),
      workers: options.workers,
      ...(selected ? { testNamePattern: testNamePatternFor(selected) } : {}),
    });
    const reports = new Map<string, ConformanceReport>();
    for (const target of prepared)
      reports.set(
        target.name,
        await concludeTarget(target, run, {
          runId: target.runId,
          startedAt,
          ...(rule !== undefined && selected ? { selection: { rule, rules: selected } } : {}),
        }),
      );
    return reports;
  } finally {
    files.remove();
  }
}
