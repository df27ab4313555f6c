// The names under which the operator's shell holds this run's target, for the commands the reports
// print (curl replays, the sweep of what was left). A run knows its target as ZONES_BASE_URL and
// ZONES_ACCESS_TOKEN; drift's mock run is given the mock's, which the operator keeps in
// ZONES_MOCK_BASE_URL and ZONES_MOCK_ACCESS_TOKEN, beside the service's staging ones. A command that
// read ZONES_ACCESS_TOKEN there would send the service's token to the mock, or sweep the service.
// The run is told the names' prefix as an option (`--target-variables ZONES_MOCK_`), never by the
// environment: whoever reads the command that starts a run sees it.

export const DEFAULT_PREFIX = 'ZONES_';

/** Only a plain shell name: it is written into commands a person pastes. */
export function isOperatorPrefix(prefix = DEFAULT_PREFIX): boolean {
  return /^ZONES_(?:[A-Z0-9_]*_)?$/.test(prefix);
}

/** The operator's name for one of this run's own settings: ZONES_ACCESS_TOKEN, or ZONES_MOCK_ACCESS_TOKEN in drift's mock run. */
export function operatorVariable(setting: 'BASE_URL' | 'ACCESS_TOKEN', prefix = DEFAULT_PREFIX): string {
  return `${prefix}${setting}`;
}

/** What a printed command puts before itself to reach this run's target: in drift's mock run, the mock's address and token. */
export function operatorTargetPrefix(prefix = DEFAULT_PREFIX): string {
  if (prefix === DEFAULT_PREFIX) return '';
  return `ZONES_BASE_URL="$${operatorVariable('BASE_URL', prefix)}" ZONES_ACCESS_TOKEN="$${operatorVariable('ACCESS_TOKEN', prefix)}" `;
}
