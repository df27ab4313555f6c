// Who may call, and what a refusal looks like. The AUTH mutants all differ from the reference here.

import type { Credential } from './credentials.ts';
import { type Fault, type FaultName, has } from './faults.ts';
import type { Operation } from './routes.ts';

export type Refusal =
  | { kind: 'refuse' }
  | { kind: 'refuse-with-200' }
  | { kind: 'refuse-leaking-zones' }
  | { kind: 'refuse-but-perform' };

/** The mutants that let one operation through without any credential. */
const OPEN_WITHOUT_CREDENTIAL: Record<Operation, FaultName> = {
  list: 'list-open',
  create: 'create-open',
  update: 'update-open',
  delete: 'delete-open',
};

/** The mutants that answer a refusal but carry the write out all the same, by credential. */
const PERFORMED_ANYWAY: Record<Exclude<Credential, 'valid'>, Partial<Record<Operation, FaultName>>> = {
  missing: {
    create: 'refused-create-still-creates',
    update: 'refused-update-still-applies',
    delete: 'refused-delete-still-deletes',
  },
  wrong: {
    create: 'wrong-token-create-still-creates',
    update: 'wrong-token-update-still-applies',
    delete: 'wrong-token-delete-still-deletes',
  },
};

export function letsThrough(
  fault: Fault | undefined,
  operation: Operation,
  credential: Credential,
  filtered = false,
): boolean {
  if (credential === 'valid') return true;
  if (credential === 'missing' && operation === 'list' && filtered) return has(fault, 'filtered-list-open');
  if (credential === 'missing') return has(fault, OPEN_WITHOUT_CREDENTIAL[operation]);
  return has(fault, 'any-token-accepted') || has(fault, `wrong-token-accepted-on-${operation}`);
}

export function refusalFor(
  fault: Fault | undefined,
  operation: Operation,
  credential: Exclude<Credential, 'valid'>,
): Refusal {
  // These two misbehave only for a missing credential, so a wrong one still meets the plain refusal.
  if (credential === 'missing' && has(fault, 'unauth-200-error-body')) return { kind: 'refuse-with-200' };
  if (credential === 'missing' && operation === 'list' && has(fault, 'list-refusal-leaks-zones'))
    return { kind: 'refuse-leaking-zones' };
  const performer = PERFORMED_ANYWAY[credential][operation];
  if (performer !== undefined && has(fault, performer)) return { kind: 'refuse-but-perform' };
  return { kind: 'refuse' };
}
