// A recorded exchange as a curl command that sends the same request again, for the reader of a
// report who wants to see the shop answer it once more. Built from the client's record, so the
// credential is never in it: the command reads it from an environment variable when it runs,
// ZONES_ACCESS_TOKEN, or ZONES_MOCK_ACCESS_TOKEN in drift's mock run (operator-variables.ts).
import type { TargetConfig } from '../config.ts';
import type { Exchange } from './exchange.ts';
import { DEFAULT_PREFIX, operatorVariable } from './operator-variables.ts';

/** How the command names the token: the shell fills it in, so no report ever holds its value. */
function tokenInShell(prefix: string): string {
  return `"$${operatorVariable('ACCESS_TOKEN', prefix)}"`;
}

/**
 * The suite's wrong credential is the token with its last character changed (helpers/evidence/secrets.ts).
 * Which character it became would give the token's last one away, so the command makes its own wrong
 * token of the same length at run time: the last character becomes 0, or 1 where it was 0.
 */
function wrongTokenInShell(prefix: string): string {
  return `"$(printf %s ${tokenInShell(prefix)} | sed -e 's/0$/1/' -e t -e 's/.$/0/')"`;
}

/** One word for a POSIX shell: single quotes keep everything as it is, a quote itself is closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export type ReplaySettings = Pick<TargetConfig, 'authHeader' | 'authScheme' | 'tlsInsecure' | 'caFile'>;

/**
 * The exchange's request as one shell command: its method, URL, headers (the credential from the
 * environment) and body byte for byte. `-i` shows the answer's status line and headers with its body.
 * An argument cannot hold a NUL byte, so a body with one is piped in from printf instead. A body kept
 * in a file (`bodyFile`, bounded-body.ts) is sent from it: the command stays one line a person can read.
 * `prefix` begins the name of the operator variable that holds the token (operator-variables.ts): the
 * run's own, or the mock's where drift writes a command for its mock's run.
 */
export function curlCommand(
  exchange: Pick<Exchange, 'method' | 'url' | 'auth' | 'requestHeaders' | 'requestBody'>,
  settings: ReplaySettings,
  bodyFile?: string,
  prefix = DEFAULT_PREFIX,
): string {
  const words = ['curl', '-sS', '-i', '-X', exchange.method, shellQuote(exchange.url)];
  if (settings.tlsInsecure) words.push('--insecure');
  if (settings.caFile !== undefined) words.push('--cacert', shellQuote(settings.caFile));
  const credentialHeader = settings.authHeader.toLowerCase();
  for (const [name, value] of Object.entries(exchange.requestHeaders)) {
    if (name === credentialHeader) continue;
    words.push('-H', shellQuote(`${name}: ${value}`));
  }
  const credential = credentialOf(exchange, settings, prefix);
  if (credential !== undefined) words.push('-H', credential);
  const body = exchange.requestBody;
  if (body === undefined) return words.join(' ');
  if (bodyFile !== undefined) return [...words, '--data-binary', `@${shellQuote(bodyFile)}`].join(' ');
  if (!body.includes('\0')) return [...words, '--data-binary', shellQuote(body)].join(' ');
  // printf's format turns \000 back into the byte; a % or \ of the body is escaped for it.
  const format = body.replace(/[\\%\0]/g, (c) => ({ '\\': '\\\\', '%': '%%', '\0': '\\000' })[c]!);
  return `printf ${shellQuote(format)} | ${[...words, '--data-binary', '@-'].join(' ')}`;
}

/** The credential header as the exchange sent it, with the token left to the shell; none when none was sent. */
function credentialOf(exchange: Pick<Exchange, 'auth'>, settings: ReplaySettings, prefix: string): string | undefined {
  if (exchange.auth === 'none') return undefined;
  const scheme = settings.authScheme === '' ? '' : `${settings.authScheme} `;
  const token = exchange.auth === 'valid' ? tokenInShell(prefix) : wrongTokenInShell(prefix);
  return `${shellQuote(`${settings.authHeader}: ${scheme}`)}${token}`;
}
