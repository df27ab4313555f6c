// Outcomes other than pass and fail. A rule the suite could not check is not-verified, with the
// reason and what would let it be checked: never a quiet skip, never a pass.
import type { TestContext } from 'vitest';

/** Thrown when the ground a check stands on is missing, e.g. a zone could not be created. */
export class PreconditionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PreconditionError';
  }
}

export function notVerified(context: Pick<TestContext, 'task' | 'skip'>, reason: string): never {
  context.task.meta.notVerified = reason;
  context.skip(`not verified: ${reason}`);
  throw new Error('unreachable: skip() throws');
}
