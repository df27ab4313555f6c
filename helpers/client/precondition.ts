// The error for missing ground: thrown where the shop's answers leave a check nothing to stand on
// (the launcher's preflight catches it as well as the tests), so it lives beside the client, not in
// the vitest workers' not-verified module.

/** Thrown when the ground a check stands on is missing, e.g. a zone could not be created. */
export class PreconditionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PreconditionError';
  }
}
