// The names under which the operator's shell holds this run's target, for the commands the reports
// print (curl replays, the sweep of what was left). A run knows its target as ZONES_BASE_URL and
// ZONES_ACCESS_TOKEN; drift's mock run is given the mock's, which the operator keeps in
// ZONES_MOCK_BASE_URL and ZONES_MOCK_ACCESS_TOKEN, beside the service's staging ones. A command that
// read ZONES_ACCESS_TOKEN there would send the service's token to the mock, or sweep the service.

/** An internal switch, not a setting: the drift launcher sets it to `ZONES_MOCK_` for its mock's run. */
export const OPERATOR_PREFIX_VARIABLE = 'ZC_OPERATOR_PREFIX';

const DEFAULT_PREFIX = 'ZONES_';

function operatorPrefix(env: NodeJS.ProcessEnv): string {
  const prefix = env[OPERATOR_PREFIX_VARIABLE]?.trim() ?? '';
  // Only a plain shell name is taken: it is written into commands a person pastes.
  return /^ZONES_[A-Z0-9_]*$/.test(prefix) && prefix.endsWith('_') ? prefix : DEFAULT_PREFIX;
}

/** The operator's name for one of this run's own settings: ZONES_ACCESS_TOKEN, or ZONES_MOCK_ACCESS_TOKEN in drift's mock run. */
export function operatorVariable(setting: 'BASE_URL' | 'ACCESS_TOKEN', env: NodeJS.ProcessEnv = process.env): string {
  return `${operatorPrefix(env)}${setting}`;
}

/**
 * What a printed command puts before itself so that it reaches this run's target from the operator's
 * shell: nothing in a plain run; the mock's address and token as the run's own in drift's mock run.
 */
export function operatorTargetPrefix(env: NodeJS.ProcessEnv = process.env): string {
  if (operatorPrefix(env) === DEFAULT_PREFIX) return '';
  const base = operatorVariable('BASE_URL', env);
  const token = operatorVariable('ACCESS_TOKEN', env);
  return `ZONES_BASE_URL="$${base}" ZONES_ACCESS_TOKEN="$${token}" `;
}
