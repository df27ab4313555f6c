// How the launcher reads SIGINT and SIGTERM: the first asks for a clean stop, a second one asks to
// leave at once. One Ctrl-C can reach the run more than once: the terminal signals every process of
// the foreground group, and a wrapper in that group may relay its own copy to its child (the tsx CLI
// does, 30 ms after the child got the terminal's). A repeat that close is the same press, not a second.

/** Long enough for a wrapper's relay on a busy machine, shorter than a person's deliberate second press. */
export const SAME_PRESS_MS = 250;

export interface StopSignalHandlers {
  /** The first signal: stop the tests, then clean up. */
  stop(signal: NodeJS.Signals): void;
  /** A later signal: leave now, clean-up or not. */
  leave(signal: NodeJS.Signals): void;
}

export function readStopSignals(
  handlers: StopSignalHandlers,
  clock: () => number = Date.now,
): (signal: NodeJS.Signals) => void {
  let first: { signal: NodeJS.Signals; at: number } | undefined;
  return (signal) => {
    const at = clock();
    if (first === undefined) {
      first = { signal, at };
      handlers.stop(signal);
    } else if (signal !== first.signal || at - first.at >= SAME_PRESS_MS) {
      handlers.leave(signal);
    }
  };
}
