// One call before the suites: a target that cannot be reached, or that rejects the given token, is
// a run that cannot happen, and the user gets one line saying so instead of a wall of failures.
import { TransportError, ZonesClient } from './client.ts';
import type { TargetConfig } from './config.ts';
import type { Ledger } from './ledger.ts';
import { PreconditionError } from './outcomes.ts';

export class CannotRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CannotRunError';
  }
}

export async function preflight(config: TargetConfig, ledger: Ledger): Promise<number> {
  let requests = 0;
  const api = new ZonesClient(config, { ledger, onExchange: () => (requests += 1) });
  let list;
  try {
    list = await api.listZones();
  } catch (error) {
    // Answers came, but the pages lead somewhere the suite cannot follow (ZONES_PAGING).
    if (error instanceof PreconditionError) throw new CannotRunError(`the zone list at ${api.collectionUrl()} cannot be read with ZONES_PAGING=${config.paging}: ${error.message}`);
    const why = error instanceof TransportError ? error.exchange.error : String(error);
    throw new CannotRunError(`cannot reach the target at ${api.collectionUrl()}: ${why}`);
  }
  if (list.status === 401 || list.status === 403) {
    throw new CannotRunError(`the target rejects the access token (GET ${api.collectionUrl()} answered ${list.status}); check ZONES_ACCESS_TOKEN, ZONES_AUTH_HEADER and ZONES_AUTH_SCHEME`);
  }
  // A list that answers but can't be read as configured would fail every rule for the settings' sake.
  if (list.status >= 200 && list.status <= 299 && typeof list.zones === 'string') {
    const key = config.envelope === 'wrapped' ? `, ZONES_LIST_KEY=${config.listKey}` : '';
    throw new CannotRunError(`the zone list at ${api.collectionUrl()} cannot be read with ZONES_ENVELOPE=${config.envelope}${key} and ZONES_ID_FIELD=${config.idField}: ${list.zones}`);
  }
  // Any other answer, even a 404, is left to the rules: PATH-01 reports a wrong path.
  return requests;
}
