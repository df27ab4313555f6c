// The problems the settings validator names for an environment, or none: how the self-tests read a refusal.
import { ConfigError, type Environment, readTargetConfig } from '../../helpers/config.ts';

export function problemsOf(env: Environment): string[] {
  try {
    readTargetConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
