import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { type Fault, has } from './faults.ts';
import type { HouseStyle } from './styles.ts';

export type Credential = 'valid' | 'wrong' | 'missing';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
/** The expected token's digest, worked out once per token rather than on every request. */
const expectedDigests = new Map<string, Buffer>();

// Hashing first gives equal-length inputs, so the comparison time says nothing about the token.
function sameSecret(given: string, expected: string): boolean {
  let expectedDigest = expectedDigests.get(expected);
  if (expectedDigest === undefined) {
    expectedDigest = digest(expected);
    expectedDigests.set(expected, expectedDigest);
  }
  return timingSafeEqual(digest(given), expectedDigest);
}

function presentedToken(value: string, scheme: string): string | undefined {
  if (scheme === '') return value;
  const space = value.indexOf(' ');
  if (space < 0) return undefined;
  // Auth schemes are case-insensitive (RFC 9110 §11.1); the token itself is not.
  if (value.slice(0, space).toLowerCase() !== scheme.toLowerCase()) return undefined;
  return value.slice(space + 1);
}

export function checkCredential(req: IncomingMessage, style: HouseStyle, token: string, fault?: Fault): Credential {
  const raw = req.headers[style.authHeader.toLowerCase()];
  if (raw === undefined || raw === '' || (typeof raw === 'string' && raw.trim() === '')) return 'missing';
  if (typeof raw !== 'string') return 'wrong';
  const given = presentedToken(raw, style.authScheme);
  if (given !== undefined && has(fault, 'token-format-only') && given.length === token.length) return 'valid';
  return given !== undefined && sameSecret(given, token) ? 'valid' : 'wrong';
}
