// Every reason a rule can be not verified for, and every note beside a status, reaches a reader in
// every format, cut to its first line: it must be a whole sentence there. These are read from the
// source, where each is written once: the texts handed to notVerified, to a PreconditionError (which
// a rule test turns into not-verified) and to a `reason:`, each interpolation read as a value.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';
import { projectRoot } from './run-node.ts';

/** Words a sentence can't stop on: it would say what happens, or where, next. */
const LEAVES_OPEN = new Set(
  'would could should can will may must might to of by with for in on at from into than as the a an and or but is are was were be that which'.split(
    ' ',
  ),
);

/** Where a reason's text starts: the literal right after one of these. */
const REASON_STARTS = /(?:\bnotVerified\(\s*\w+,|\bnew PreconditionError\(|\breason: )\s*(?=['"`])/g;

/** The literal that opens at `at`, each `${...}` in it read as the word VALUE, and where it ends. */
function literalAt(source: string, at: number): { text: string; end: number } {
  const quote = source[at];
  let text = '';
  for (let i = at + 1; i < source.length; i++) {
    if (source[i] === '\\') text += source.slice(i, ++i + 1);
    else if (source[i] === quote) return { text, end: i };
    else if (quote === '`' && source.startsWith('${', i)) {
      i = endOfInterpolation(source, i + 2);
      text += 'VALUE';
    } else text += source[i];
  }
  throw new Error(`a literal that never closes at ${at}`);
}

/** The `}` that closes an interpolation begun before `from`, past any literal nested in it. */
function endOfInterpolation(source: string, from: number): number {
  let depth = 1;
  for (let i = from; i < source.length; i++) {
    if ('`\'"'.includes(source[i]!)) i = literalAt(source, i).end;
    else if (source[i] === '{') depth++;
    else if (source[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`an interpolation that never closes at ${from}`);
}

/** A reason as the reports show it: its first line. */
function reasonsIn(source: string): string[] {
  return [...source.matchAll(REASON_STARTS)].map(
    (match) => literalAt(source, match.index + match[0].length).text.split('\\n')[0]!,
  );
}

function endsOpen(sentence: string): boolean {
  const lastWord = sentence.trim().match(/([A-Za-z]+)\W*$/)?.[1] ?? '';
  return LEAVES_OPEN.has(lastWord.toLowerCase());
}

function sourceFiles(folder: string): string[] {
  return readdirSync(join(projectRoot, folder), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(projectRoot, folder, name));
}

test('a sentence left hanging on a verb or a preposition is told from a whole one', () => {
  expect(endsOpen('a larger ZONES_MODEL_RUNS would')).toBe(true);
  expect(endsOpen('set ZONES_BOOKING_HOOK to')).toBe(true);
  expect(endsOpen('a larger ZONES_MODEL_RUNS would give the sequences more room to reach it')).toBe(false);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: source text to scan, placeholders and all
  expect(reasonsIn("notVerified(context, `no check of ${id} (${a ? `x ${b}` : 'y'}) would`);")).toEqual([
    'no check of VALUE (VALUE) would',
  ]);
  expect(
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text to scan, placeholders and all
    reasonsIn('throw new PreconditionError(\n  `could not create (status ${s})\\n${formatAnswers(a)}`,\n);'),
  ).toEqual(['could not create (status VALUE)']);
});

test('every reason and note the suite writes is a whole sentence, the model-based ones included', () => {
  const reasons = ['helpers', 'suites']
    .flatMap(sourceFiles)
    .flatMap((path) =>
      reasonsIn(readFileSync(path, 'utf8')).map((reason) => ({ file: relative(projectRoot, path), reason })),
    );
  // The scan reaches the notes of the model-based tests and the reasons of the rule tests.
  const files = new Set(reasons.map(({ file }) => file));
  for (const file of [
    'helpers/harness/model/model-tests.ts',
    'helpers/harness/list-checks.ts',
    'suites/delete.test.ts',
  ])
    expect(files).toContain(file);
  expect(reasons.filter(({ reason }) => endsOpen(reason))).toEqual([]);
});
