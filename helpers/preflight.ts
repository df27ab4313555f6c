// One call before the suites: a target that cannot be reached, or that rejects the given token, is
// a run that cannot happen, and the user gets one line saying so instead of a wall of failures.
import { TransportError, ZonesClient } from './client.ts';
import type { TargetConfig } from './config.ts';
import type { Ledger } from './ledger.ts';

export class CannotRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CannotRunError';
  }
}

export async function preflight(config: TargetConfig, ledger: Ledger): Promise<number> {
  let requests = 0;
  const api = new ZonesClient(config, { ledger, onExchange: () => (requests += 1) });
  let status: number;
  try {
    status = (await api.listZones()).status;
  } catch (error) {
    const why = error instanceof TransportError ? error.exchange.error : String(error);
    throw new CannotRunError(`cannot reach the target at ${api.collectionUrl()}: ${why}`);
  }
  if (status === 401 || status === 403) {
    throw new CannotRunError(`the target rejects the access token (GET ${api.collectionUrl()} answered ${status}); check ZONES_ACCESS_TOKEN, ZONES_AUTH_HEADER and ZONES_AUTH_SCHEME`);
  }
  // Any other answer, even a 404, is left to the rules: PATH-01 reports a wrong path.
  return requests;
}
