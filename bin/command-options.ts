// A command's options, read strictly, and its exit when it cannot run. A mistyped option (--rules for
// --rule) is refused, naming the option likely meant, so that a person need not read all of --help.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { nearestName } from '../helpers/config.ts';
import type { Secrets } from '../helpers/evidence/secrets.ts';
import { EXIT } from '../helpers/exit-codes.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The options' values, or why the command line can't be read (the parser's words, and a near option if there is one). */
export function parseOptions<T extends Options>(options: T) {
  try {
    return { ok: true as const, values: parseArgs({ options, strict: true }).values };
  } catch (error) {
    const message = (error as Error).message;
    const typed = message.match(/^Unknown option '--([^']+)'/)?.[1];
    // About one slip in four letters of the option meant.
    const meant = typed && nearestName(typed, Object.keys(options), (name) => Math.ceil(name.length / 4));
    return { ok: false as const, problem: meant ? `${message}; did you mean --${meant}?` : message };
  }
}

/** An unreadable command line goes to `refuse`; --help prints `usage` and gives undefined, the cue to end. */
export function readCommandLine<T extends Options>(options: T, usage: string, refuse: (problem: string) => never) {
  const parsed = parseOptions({ help: { type: 'boolean', short: 'h' }, ...options });
  if (!parsed.ok) refuse(`${parsed.problem} (see --help)`);
  if ((parsed.values as { help?: boolean }).help !== true) return parsed.values;
  console.log(usage);
  return undefined;
}
/** `line` on stderr and exit 3, after the could-not-run report, if the command writes one; one it could not write is said too. */
export function leaveCannotRun(line: string, report?: { write: () => void; dir: string; secrets: Secrets }): never {
  try {
    report?.write();
  } catch (error) {
    line += ` (no report written to ${report?.dir}: ${report?.secrets.mask((error as Error).message)})`;
  }
  console.error(line);
  process.exit(EXIT.cannotRun);
}
