// Outcomes other than pass and fail. A rule the suite could not check is not-verified, with the
// reason and what would let it be checked: never a quiet skip, never a pass.
import type { TestContext } from 'vitest';

export function notVerified(context: Pick<TestContext, 'task' | 'skip'>, reason: string): never {
  context.task.meta.notVerified = reason;
  context.skip(`not verified: ${reason}`);
  throw new Error('unreachable: skip() throws');
}
