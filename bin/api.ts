// `import { certify } from 'zones-conformance'`: one certification from code, the same run as `zones-conformance
// conformance`. Settings are passed in, never read from the process's environment, and checked exactly as a run checks
// the environment's; the answer is the run's one certificate, the model every report is rendered from.
import { readTargetConfig } from '../helpers/config.ts';
import { Secrets } from '../helpers/evidence/secrets.ts';
import { allureLocations } from '../helpers/report/allure-layout.ts';
import type { ConformanceReport } from '../helpers/report/certificate.ts';
import { setAsideReports } from '../helpers/report/previous-reports.ts';
import { writeReports } from '../helpers/report/write-reports.ts';
import { certify as certifyTarget } from '../helpers/runner/certify.ts';
import { selectRules, testNamePatternFor } from '../helpers/runner/rule-selection.ts';
import { startEmbeddedTarget } from './reference-settings.ts';

export type { ConformanceReport };

export interface CertifyOptions {
  /** ZONES_* settings by name, as the environment would give them; none: the embedded reference is certified. */
  settings?: Record<string, string>;
  /** A shop profile's path (ZONES_PROFILE). */
  profile?: string;
  /** Rule ids and families to check (--rule); the others are reported not selected. */
  rules?: string[];
  /** The model-based sequences' seed (--seed). */
  seed?: number;
  /**
   * Where the reports go (ZONES_REPORTS_DIR); `false`: write none. The run's ledger, for a sweep, is kept either way, in
   * the settings' ZONES_REPORTS_DIR (reports/ when unset).
   */
  reportsDir?: string | false;
  /** Aborting stops the run as a SIGTERM would: the test under way finishes, the run's zones are deleted. */
  signal?: AbortSignal;
}

/** Resolves to the certificate; settings that cannot be used reject with the message a run would give. */
export async function certify(options: CertifyOptions = {}): Promise<ConformanceReport> {
  const { settings = {}, profile, rules, seed, reportsDir, signal } = options;
  let config = readTargetConfig({
    ...settings,
    ...(profile === undefined ? {} : { ZONES_PROFILE: profile }),
    ...(seed === undefined ? {} : { ZONES_MODEL_SEED: String(seed) }),
    ...(typeof reportsDir === 'string' ? { ZONES_REPORTS_DIR: reportsDir } : {}),
  });
  const selected = rules === undefined ? undefined : selectRules(rules.join(','));
  const embedded = config.embedded ? await startEmbeddedTarget(config) : undefined;
  if (embedded) config = embedded.config;
  let stopped: NodeJS.Signals | undefined;
  let unlisten: (() => void) | undefined;
  try {
    if (reportsDir !== false) setAsideReports(config.reportsDir);
    const report = await certifyTarget(
      { name: 'target', config },
      {
        testNamePattern: selected && testNamePatternFor(selected),
        // Allure's results are one of the reports: written beside the others, or not at all.
        reporters:
          reportsDir === false
            ? []
            : [['allure-vitest/reporter', { resultsDir: allureLocations(config.reportsDir).results }]],
        onStarted: (stop) => {
          const abort = () => {
            stopped = 'SIGTERM';
            void stop();
          };
          if (signal?.aborted) return abort();
          signal?.addEventListener('abort', abort, { once: true });
          unlisten = () => signal?.removeEventListener('abort', abort);
        },
        launcherFacts: () => ({
          stoppedBy: stopped,
          selection: selected && { rule: rules!.join(','), rules: selected },
        }),
      },
    );
    if (reportsDir !== false)
      writeReports(report, { reportsDir: config.reportsDir, secrets: new Secrets(config), warn: console.warn });
    return report;
  } finally {
    // A signal shared by many runs must not stop, later, one that has ended.
    unlisten?.();
    await embedded?.reference.close();
  }
}
