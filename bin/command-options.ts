// A command's options, read strictly, and its exit when it cannot run. A mistyped option (--rules for
// --rule) is refused, naming the option likely meant, so that a person need not read all of --help.
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { Secrets } from '../helpers/evidence/secrets.ts';
import { EXIT } from '../helpers/exit-codes.ts';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The options' values, or why the command line can't be read (the parser's words, and a near option if there is one). */
export function parseOptions<T extends Options>(options: T) {
  try {
    return { ok: true as const, values: parseArgs({ options, strict: true }).values };
  } catch (error) {
    const message = (error as Error).message;
    const meant = nearestOption(message.match(/^Unknown option '--([^']+)'/)?.[1], Object.keys(options));
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

/** The known option nearest to what was typed, when only a slip apart: about one edit in four letters. */
function nearestOption(typed: string | undefined, known: readonly string[]): string | undefined {
  if (typed === undefined) return undefined;
  const near = known.filter((name) => editDistance(typed, name) <= Math.ceil(name.length / 4));
  return near.sort((a, b) => editDistance(typed, a) - editDistance(typed, b))[0];
}

/** The letters to insert, delete, replace or swap (one slip: --hepl for --help) to turn one text into the other. */
function editDistance(from: string, to: string): number {
  let [twoAbove, above] = [[] as number[], Array.from({ length: to.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= from.length; i++) {
    const row = [i];
    for (let j = 1; j <= to.length; j++) {
      row[j] = Math.min(above[j]! + 1, row[j - 1]! + 1, above[j - 1]! + (from[i - 1] === to[j - 1] ? 0 : 1));
      if (from[i - 1] === to[j - 2] && from[i - 2] === to[j - 1]) row[j] = Math.min(row[j]!, twoAbove[j - 2]! + 1);
    }
    [twoAbove, above] = [above, row];
  }
  return above[to.length]!;
}
