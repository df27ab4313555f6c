// Thrown where the shop's answers leave a check nothing to stand on, e.g. a zone could not be created.
// The launcher's preflight catches it as well as the tests, so it lives beside the client, not in the
// vitest workers' not-verified module.
export class PreconditionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PreconditionError';
  }
}
