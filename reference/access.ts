// Who may call, and what a refusal looks like. The AUTH mutants all differ from the reference here.
import { has, type Fault } from './faults.ts';
import type { Credential } from './credentials.ts';
import type { Operation } from './routes.ts';

export type Refusal =
  | { kind: 'refuse' }
  | { kind: 'refuse-with-200' }
  | { kind: 'refuse-leaking-zones' }
  | { kind: 'refuse-but-perform' };

export function letsThrough(fault: Fault | undefined, operation: Operation, credential: Credential): boolean {
  if (credential === 'valid') return true;
  if (credential === 'missing') {
    return (
      (operation === 'list' && has(fault, 'list-open')) ||
      (operation === 'create' && has(fault, 'create-open')) ||
      (operation === 'update' && has(fault, 'update-open')) ||
      (operation === 'delete' && has(fault, 'delete-open'))
    );
  }
  return has(fault, 'any-token-accepted') || (operation === 'delete' && has(fault, 'wrong-token-accepted-on-delete'));
}

export function refusalFor(fault: Fault | undefined, operation: Operation, credential: Credential): Refusal {
  // Each of these mutants misbehaves only for a missing credential, so a wrong one still meets the plain refusal.
  if (credential !== 'missing') return { kind: 'refuse' };
  if (has(fault, 'unauth-200-error-body')) return { kind: 'refuse-with-200' };
  if (operation === 'list' && has(fault, 'list-refusal-leaks-zones')) return { kind: 'refuse-leaking-zones' };
  if (
    (operation === 'create' && has(fault, 'refused-create-still-creates')) ||
    (operation === 'update' && has(fault, 'refused-update-still-applies')) ||
    (operation === 'delete' && has(fault, 'refused-delete-still-deletes'))
  ) {
    return { kind: 'refuse-but-perform' };
  }
  return { kind: 'refuse' };
}
