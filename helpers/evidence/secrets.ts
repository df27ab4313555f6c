// What a run must never write down, and the one masker that every writer uses: the client's record of
// each exchange, a booking hook's message, the reports, the could-not-run files, the console. The
// secrets are the access token, whatever is sent in the credential header, and the forged wrong
// token of AUTH-05 and AUTH-06, which is the token but for its last character and so gives it away.
import { randomBytes } from 'node:crypto';

const MASKED = '<redacted>';

export class Secrets {
  /** The wrong credential that AUTH-05 and AUTH-06 send. */
  readonly forged: string;
  private readonly known: string[];
  private readonly authHeader: string | undefined;

  constructor(settings: { token: string; authHeader?: string }) {
    this.forged = forgedToken(settings.token);
    // With no token there is nothing to give away: the forgery of none is random and shared with nobody.
    this.known = settings.token === '' ? [] : [settings.token, this.forged];
    this.authHeader = settings.authHeader?.toLowerCase();
  }

  /** The text with every secret in it masked, even where a target echoed one back. */
  mask(text: string): string {
    return this.known.reduce((masked, secret) => masked.split(secret).join(MASKED), text);
  }

  /**
   * A copy of a value (a report, say) with every string in it masked. For a writer that escapes what
   * it writes, such as XML: masked before, the mask is escaped with the rest and stays well-formed.
   */
  maskAll<T>(value: T): T {
    if (typeof value === 'string') return this.mask(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.maskAll(item)) as T;
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.maskAll(item)])) as T;
    return value;
  }

  /**
   * The first part of a body that was cut off. A secret the cut split in two is not found whole, so an
   * end that could be its beginning is dropped as well.
   */
  maskHead(head: string): string {
    return this.known.reduce(withoutStartOf, this.mask(head));
  }

  /** Headers as recorded: the credential header's value whole, whatever scheme it carries; the rest masked. */
  maskHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) {
      out[name] = name === this.authHeader ? MASKED : this.mask(value);
    }
    return out;
  }
}

/**
 * A wrong credential of the real one's length and alphabet, differing in its last character: a target
 * that checks only a token's format, not the token, accepts it and is caught.
 */
export function forgedToken(token: string): string {
  if (token === '') return `zc-wrong-${randomBytes(12).toString('hex')}`;
  const last = token.at(-1)!;
  const other = /[0-9]/.test(last)
    ? last === '0'
      ? '1'
      : '0'
    : /[a-z]/.test(last)
      ? last === 'a'
        ? 'b'
        : 'a'
      : /[A-Z]/.test(last)
        ? last === 'A'
          ? 'B'
          : 'A'
        : last === '-'
          ? '_'
          : '-';
  return `${token.slice(0, -1)}${other}`;
}

/** The text less any end of it that is the beginning of `secret`. */
function withoutStartOf(text: string, secret: string): string {
  for (let length = Math.min(secret.length - 1, text.length); length > 0; length -= 1) {
    if (text.endsWith(secret.slice(0, length))) return text.slice(0, text.length - length);
  }
  return text;
}
