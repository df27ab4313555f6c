// The one bridge between the suite and the reference: with no ZONES_BASE_URL, the suite certifies the
// embedded reference. Its house style becomes settings, through the same validator as an operator's,
// and its test-only booking route the booking hooks, so DELETE-02 runs through the real hook path.
import { type Environment, readTargetConfig, type TargetConfig } from '../helpers/config.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { bookingHooksForReference, settingsForStyle } from './reference-settings.ts';

/** The operator's own settings, then the reference's style's and its hooks. */
export function configForReference(base: TargetConfig, reference: RunningReference): TargetConfig {
  const settings = {
    ...operatorSettings(base),
    ...settingsForStyle(reference.style, reference.url, reference.token),
    ...bookingHooksForReference(),
  };
  return { ...readTargetConfig(settings), embedded: true };
}

/**
 * What the operator set that holds for whichever target (the coverage samples unless the style brings
 * its own). The rest is the style's to say: a setting meant for some shop must not leak into the reference.
 */
export function operatorSettings(base: TargetConfig): Environment {
  return {
    ZONES_API_VERSION: base.apiVersion,
    ZONES_TIMEOUT_MS: String(base.timeoutMs),
    ZONES_MAX_BODY_BYTES: String(base.maxBodyBytes),
    ZONES_MAX_RPS: String(base.maxRps),
    ZONES_CONSISTENCY_TIMEOUT_MS: String(base.consistencyTimeoutMs),
    ZONES_OUTAGE_BUDGET_MS: String(base.outageBudgetMs),
    ZONES_REPORTS_DIR: base.reportsDir,
    ZONES_COVERAGE_SAMPLES: `[${base.coverageSamples.join(',')}]`,
    ZONES_MODEL_RUNS: String(base.model.runs),
    ZONES_MODEL_STEPS: String(base.model.steps),
    ZONES_MODEL_MAX_REQUESTS: String(base.model.maxRequests),
    ZONES_MODEL_SHRINK_REQUESTS: String(base.model.shrinkRequests),
    ZONES_MODEL_SEED: base.model.seed === undefined ? '' : String(base.model.seed),
  };
}

export async function startEmbeddedTarget(base: TargetConfig) {
  const reference = await startReference({ host: '127.0.0.1', port: 0 });
  return { reference, config: configForReference(base, reference) };
}
