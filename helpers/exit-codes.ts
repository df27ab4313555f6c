// The exit codes of every command in one table, since CI scripts branch on them: a code means the
// same whichever command ends with it. Beside it, the error that ends a run before anything is judged.

export const EXIT = {
  /** conformance: conformant. sweep: done. reference: stopped when asked to. */
  ok: 0,
  /** conformance: a MUST rule failed (non-conformant). sweep: a zone it was to delete is still there. */
  failed: 1,
  /** conformance: no MUST rule failed, but some could not be verified (incomplete). */
  incomplete: 2,
  /** Any command: bad settings or arguments, an unreachable target, a rejected token; nothing was judged. */
  cannotRun: 3,
  /** Stopped by a signal: 128 plus its number, as a shell reports it. */
  SIGINT: 130,
  SIGTERM: 143,
} as const;

export function exitCodeForSignal(signal: NodeJS.Signals): number {
  return signal === 'SIGTERM' ? EXIT.SIGTERM : EXIT.SIGINT;
}

/** The settings or the target do not allow a run at all: one message, and exit code 3 (EXIT.cannotRun). */
export class CannotRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CannotRunError';
  }
}
