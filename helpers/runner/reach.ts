// What the preflight says when the shop cannot be reached as configured: a certificate the suite does
// not trust, a proxy in the way, or an address that redirects. Each names the setting that fixes it.

import type { TargetConfig } from '../config.ts';
import { shownProxy } from '../connection/proxy.ts';
import { certificateAdvice, isCertificateCode } from '../connection/trust.ts';
import type { Answer, Exchange } from '../evidence/exchange.ts';

const NOT_FOLLOWED =
  'the suite follows no redirect, since a write must not be replayed at another address and a certificate must name the address it certified';

export function isRedirect(answer: Answer): boolean {
  return answer.status >= 300 && answer.status <= 399;
}

/** A list that answers with a redirect: the address to use instead, when the redirect shows it. */
export function redirectedList(config: TargetConfig, answer: Answer): string {
  const { method, url } = answer.exchange;
  const what = `${method} ${url} answered ${answer.status}`;
  const location = answer.exchange.responseHeaders.location;
  const given = location?.trim() ?? '';
  if (given === '' || !URL.canParse(given, url)) {
    const which = given === '' ? 'a redirect with no Location' : `a redirect to "${location}", which is not a URL`;
    return `${what}, ${which}, and ${NOT_FOLLOWED}: set ZONES_BASE_URL to the address that answers the zone list itself`;
  }
  const target = new URL(given, url);
  target.username = '';
  target.password = '';
  const path = `/admin/api/${config.apiVersion}/zones.json`;
  if (target.pathname.endsWith(path)) {
    const base = `${target.origin}${target.pathname.slice(0, -path.length)}`;
    return `${what}, a redirect to ${target.href}, and ${NOT_FOLLOWED}: set ZONES_BASE_URL=${base}`;
  }
  return `${what}, a redirect to ${target.href}, which is not the zone list (a sign-in gateway?), and ${NOT_FOLLOWED}: set ZONES_BASE_URL to the shop's own address, where ${path} answers itself`;
}

/** No answer came: a certificate refused, a proxy that failed, or no route to the shop at all. */
export function unreachable(config: TargetConfig, url: string, exchange: Exchange): string {
  const said = (exchange.error ?? '').replace(/^\w*Error: /, '');
  const proxy = config.proxy && `${shownProxy(config.proxy.url)} (${config.proxy.variable})`;
  if (
    isCertificateCode(exchange.errorCode) &&
    config.proxy !== undefined &&
    new URL(config.proxy.url).protocol === 'https:'
  ) {
    // An https:// proxy has a certificate of its own; over http:// the shop has none, so it is the proxy's.
    const whose = new URL(url).protocol === 'http:' ? "the proxy's" : "the proxy's or the shop's";
    return `${whose} TLS certificate is not accepted: ${exchange.method} ${url} through the proxy ${proxy} failed with ${exchange.errorCode} (${said}): trust the CA that signed it with ZONES_CA_FILE or NODE_EXTRA_CA_CERTS, or check the proxy's address in ${config.proxy.variable}`;
  }
  if (isCertificateCode(exchange.errorCode)) {
    return `the target's TLS certificate is not accepted: ${exchange.method} ${url} failed with ${exchange.errorCode} (${said}): ${certificateAdvice(exchange.errorCode!, config.caFile)}`;
  }
  if (config.embedded) return `cannot reach the target at ${url}: ${exchange.error}`;
  // A closed port or an unknown host: the address is the setting to look at. Named without "=", so that
  // drift puts the mock's own variable in its place (inSideNames).
  if (config.proxy === undefined)
    return `cannot reach the target at ${url}: ${exchange.error}. Is the shop at ZONES_BASE_URL (${config.baseUrl}) up, and reachable from here?`;
  const fix = /\b407\b/.test(said)
    ? `the proxy asks for credentials: give them in ${config.proxy.variable} as http://user:password@host:port`
    : `check the proxy, or name the shop's host in NO_PROXY to reach it directly`;
  return `cannot reach the target at ${url} through the proxy ${proxy}: ${exchange.error}; ${fix}`;
}
