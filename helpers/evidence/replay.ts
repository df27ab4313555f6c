// A recorded exchange as a curl command that sends the same request again, for a report's reader who
// wants to see the shop answer it once more. The credential is never in it: the command reads it from
// the operator's shell when it runs, under ZONES_ACCESS_TOKEN, or in drift's mock run under
// ZONES_MOCK_ACCESS_TOKEN, lest a command send the service's token to the mock. That prefix is an
// option of the run (`--target-variables`), never the environment's.
import type { TargetConfig } from '../config.ts';
import type { Exchange } from './exchange.ts';

const DEFAULT_PREFIX = 'ZONES_';

/** Only a plain shell name: it is written into commands a person pastes. */
export function isOperatorPrefix(prefix = DEFAULT_PREFIX): boolean {
  return /^ZONES_(?:[A-Z0-9_]*_)?$/.test(prefix);
}

export function operatorVariable(setting: 'BASE_URL' | 'ACCESS_TOKEN', prefix = DEFAULT_PREFIX): string {
  return `${prefix}${setting}`;
}

/** What a printed command puts before itself to reach this run's target: in drift's mock run, the mock's address and token. */
export function operatorTargetPrefix(prefix = DEFAULT_PREFIX): string {
  if (prefix === DEFAULT_PREFIX) return '';
  return `ZONES_BASE_URL="$${operatorVariable('BASE_URL', prefix)}" ZONES_ACCESS_TOKEN="$${operatorVariable('ACCESS_TOKEN', prefix)}" `;
}

/** One word for a POSIX shell: a quote itself is closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export type ReplaySettings = Pick<TargetConfig, 'authHeader' | 'authScheme' | 'tlsInsecure' | 'caFile'>;

/**
 * The exchange's request as one shell command: its method, URL, headers (the credential from the
 * environment) and body byte for byte. `-i` shows the answer's status line and headers with its body.
 * An argument cannot hold a NUL byte, so a body with one is piped in from printf instead. A body kept
 * in a file (`bodyFile`) is sent from it: the command stays one line a person can read.
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

/** The credential header as the exchange sent it, the token left to the shell. */
function credentialOf(exchange: Pick<Exchange, 'auth'>, settings: ReplaySettings, prefix: string): string | undefined {
  if (exchange.auth === 'none') return undefined;
  const scheme = settings.authScheme === '' ? '' : `${settings.authScheme} `;
  const token = `"$${operatorVariable('ACCESS_TOKEN', prefix)}"`;
  // The suite's wrong token would give the token's last character away: the command makes its own at run time.
  const sent = exchange.auth === 'valid' ? token : `"$(printf %s ${token} | sed -e 's/0$/1/' -e t -e 's/.$/0/')"`;
  return `${shellQuote(`${settings.authHeader}: ${scheme}`)}${sent}`;
}
