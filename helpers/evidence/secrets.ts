// What a run must never write down, and the one masker every writer uses: the access token, whatever
// goes in the credential header, and AUTH-05's forged token, which is the token but for its last character.
import { randomBytes } from 'node:crypto';

const MASKED = '<redacted>';

/**
 * The shortest token masked wherever it appears, not only as the credential. A shorter one (`x`, `test`),
 * masked inside the reports' own words, garbles them (`zones-conform<redacted>nce`) and hides nothing. No
 * real credential is that short (Shopify's are 38 characters): a garbled `password` beats a leaked key.
 */
export const MASKED_EVERYWHERE_FROM = 8;

/** What may follow a credential's value in text: its end, a space, a quote or a delimiter. */
const VALUE_END = String.raw`(?=$|[\s"'\x60,;\\)\]}<>&])`;

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

export function isShortToken(token: string): boolean {
  return token !== '' && token.length < MASKED_EVERYWHERE_FROM;
}

/** The launcher's one warning about a token too short to be a real one. */
export function shortTokenWarning(token: string): string | undefined {
  if (!isShortToken(token)) return undefined;
  return `ZONES_ACCESS_TOKEN is ${token.length} character(s) long, which looks like a placeholder (a mock without authentication?); a token shorter than ${MASKED_EVERYWHERE_FROM} characters is masked only where it stands as the credential, not inside other text`;
}

export class Secrets {
  /** The wrong credential that AUTH-05 and AUTH-06 send. */
  readonly forged: string;
  private readonly known: string[];
  private readonly authHeader: string | undefined;
  /** For a short token: the token or its forgery where it stands as the credential, and the same cut off at the text's end. */
  private readonly asCredential: RegExp | undefined;
  private readonly asCredentialCut: RegExp | undefined;

  /** `mockToken`: drift's ZONES_MOCK_ACCESS_TOKEN, masked wherever the service's is, so that its reports give away neither. */
  constructor(settings: { token: string; authHeader?: string; authScheme?: string; mockToken?: string }) {
    this.forged = forgedToken(settings.token);
    this.authHeader = settings.authHeader?.toLowerCase();
    // With no token there is nothing to give away: the forgery of none is random and shared with nobody.
    const tokens = [settings.token, settings.mockToken ?? ''].filter((token) => token !== '');
    // A short token's forgery goes with it: all of it but the last character, which the letters around
    // already show, and masked inside words it garbles as much (the forgery of `x` is `a`).
    const short = tokens.filter(isShortToken).flatMap((token) => [token, forgedToken(token)]);
    this.known = tokens.filter((each) => !isShortToken(each)).flatMap((token) => [token, forgedToken(token)]);
    if (short.length > 0) {
      const prefix = credentialPrefix(settings);
      this.asCredential = new RegExp(`${prefix}(?:${short.map(literal).join('|')})${VALUE_END}`, 'gi');
      const starts = short.flatMap((secret) => Array.from({ length: secret.length }, (_, i) => secret.slice(0, i + 1)));
      this.asCredentialCut = new RegExp(`${prefix}(?:${starts.map(literal).join('|')})$`, 'i');
    }
  }

  mask(text: string): string {
    const masked = this.known.reduce((done, secret) => done.split(secret).join(MASKED), text);
    return this.asCredential ? masked.replace(this.asCredential, `$1${MASKED}`) : masked;
  }

  /** A copy with every string in it masked, for a writer that escapes what it writes (XML): the mask is escaped with the rest. */
  maskAll<T>(value: T): T {
    if (typeof value === 'string') return this.mask(value) as T;
    if (Array.isArray(value)) return value.map((item) => this.maskAll(item)) as T;
    if (value !== null && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, this.maskAll(item)])) as T;
    return value;
  }

  /**
   * The first part of a body that was cut off: an end that could begin a secret the cut split is dropped
   * too (for a short token, only where it stands as the credential: any text may end in a `t`).
   */
  maskHead(head: string): string {
    const masked = this.known.reduce(withoutStartOf, this.mask(head));
    return this.asCredentialCut ? masked.replace(this.asCredentialCut, '$1') : masked;
  }

  /** Headers as recorded: the credential header's value whole, whatever scheme it carries; the rest masked. */
  maskHeaders(headers: Record<string, string>): Record<string, string> {
    const masked = (name: string, value: string) => (name === this.authHeader ? MASKED : this.mask(value));
    return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, masked(name, value)]));
  }
}

/**
 * Where a value stands as the credential, as group 1: after the credential header's name (or
 * Authorization's, or ZONES_ACCESS_TOKEN's) and a `:` or `=`, quoted or not, or after the scheme
 * (`Bearer x`); never inside a word.
 */
function credentialPrefix(settings: { authHeader?: string; authScheme?: string }): string {
  const alternatives = (words: (string | undefined)[]) =>
    [...new Set(words)]
      .filter((word): word is string => word !== undefined && word !== '')
      .map(literal)
      .join('|');
  const scheme = `(?:(?:${alternatives([settings.authScheme, 'Bearer'])})\\s+)`;
  const quote = `[\\\\"']*`;
  const named = `(?:${alternatives([settings.authHeader, 'Authorization', 'ZONES_ACCESS_TOKEN'])})${quote}\\s*[:=]\\s*${quote}${scheme}?`;
  return `((?<![\\w-])(?:${named}|${scheme}))`;
}

/** A class of last characters, what a forgery's last becomes, and what instead when it already was that. */
const FORGERY_SWAPS: readonly [RegExp, string, string][] = [
  [/[0-9]/, '0', '1'],
  [/[a-z]/, 'a', 'b'],
  [/[A-Z]/, 'A', 'B'],
];

/** Of the real one's length and alphabet: a target that checks only a token's format accepts it and is caught. */
export function forgedToken(token: string): string {
  if (token === '') return `zc-wrong-${randomBytes(12).toString('hex')}`;
  const last = token.at(-1)!;
  const [, usual, instead] = FORGERY_SWAPS.find(([kind]) => kind.test(last)) ?? [undefined, '-', '_'];
  return `${token.slice(0, -1)}${last === usual ? instead : usual}`;
}

function withoutStartOf(text: string, secret: string): string {
  for (let length = Math.min(secret.length - 1, text.length); length > 0; length -= 1) {
    if (text.endsWith(secret.slice(0, length))) return text.slice(0, text.length - length);
  }
  return text;
}
