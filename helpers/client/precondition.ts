// Thrown where the shop's answers leave a check nothing to stand on (a zone could not be created); the
// preflight catches it as well as the tests, so it lives beside the client.
export class PreconditionError extends Error {
  override name = 'PreconditionError';
}
