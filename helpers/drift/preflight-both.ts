// Both targets' preflights, run by drift itself before either conformance run starts. A mock that
// needs other settings, or cannot be reached, is then known before the service's whole suite has made
// and deleted its zones on staging for nothing; and the service's preflight passing is what lets the
// report say the service takes the settings the mock refused. Each preflight is the one a run makes
// (helpers/runner/preflight.ts): a list read, one create, its read-back and its delete, with a ledger.
import type { TargetConfig } from '../config.ts';
import { newRunId, prepareTarget } from '../runner/certify.ts';
import type { Side } from './targets.ts';

/** Why each side's preflight refused it; undefined for a side that passed. */
export type PreflightRefusals = Record<Side, string | undefined>;

export async function preflightBoth(
  configs: Record<Side, TargetConfig>,
  onWaiting: (side: Side, line: string) => void,
): Promise<PreflightRefusals> {
  const check = async (side: Side): Promise<string | undefined> => {
    try {
      await prepareTarget(
        { name: side, config: configs[side] },
        { runId: newRunId(), onWaiting: (line) => onWaiting(side, line) },
      );
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  };
  const [service, mock] = await Promise.all([check('service'), check('mock')]);
  return { service, mock };
}
