// The names under which the operator's shell holds this run's target, for the commands reports print:
// in drift's mock run, ZONES_MOCK_BASE_URL and ZONES_MOCK_ACCESS_TOKEN, lest a command send the service's
// token to the mock. The prefix is an option of the run (`--target-variables`), never the environment's.

export const DEFAULT_PREFIX = 'ZONES_';

/** Only a plain shell name: it is written into commands a person pastes. */
export function isOperatorPrefix(prefix = DEFAULT_PREFIX): boolean {
  return /^ZONES_(?:[A-Z0-9_]*_)?$/.test(prefix);
}

export function operatorVariable(setting: 'BASE_URL' | 'ACCESS_TOKEN', prefix = DEFAULT_PREFIX): string {
  return `${prefix}${setting}`;
}

/** What a printed command puts before itself to reach this run's target: in drift's mock run, the mock's address and token. */
export function operatorTargetPrefix(prefix = DEFAULT_PREFIX): string {
  if (prefix === DEFAULT_PREFIX) return '';
  return `ZONES_BASE_URL="$${operatorVariable('BASE_URL', prefix)}" ZONES_ACCESS_TOKEN="$${operatorVariable('ACCESS_TOKEN', prefix)}" `;
}
