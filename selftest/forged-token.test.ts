// The wrong credential of AUTH-05 and AUTH-06 looks like the real one: a target that checks only the
// format of a token must still be caught, so the forgery keeps its length and alphabet.
import { expect, test } from 'vitest';
import { forgedToken } from '../helpers/evidence/secrets.ts';

test.for(['shpat_0123456789abcdef0123456789abcdef', 'ref_8f3a', 'TOKEN', 'abc-', 'x', 'a1b0'])(
  'a forgery of %s has its length and alphabet, and differs',
  (token) => {
    const forged = forgedToken(token);
    expect(forged).not.toBe(token);
    expect(forged).toHaveLength(token.length);
    expect(forged.slice(0, -1)).toBe(token.slice(0, -1));
    const kind = (c: string) =>
      /[0-9]/.test(c) ? 'digit' : /[a-z]/.test(c) ? 'lower' : /[A-Z]/.test(c) ? 'upper' : 'other';
    expect(kind(forged.at(-1)!)).toBe(kind(token.at(-1)!));
  },
);
