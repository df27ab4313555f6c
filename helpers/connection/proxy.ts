// Which forward proxy, if any, carries the requests to the shop, read from the environment as curl reads
// it. Every request of a run goes to the one origin of ZONES_BASE_URL, so the choice is made once.
import { BlockList, isIP } from 'node:net';

export interface ProxyRoute {
  /** The proxy's URL as given, credentials and all: for the connection only, never for display. */
  url: string;
  variable: string;
}

type Environment = Record<string, string | undefined>;

/** Every name the proxy settings go by, in lower and upper case; a child that must not use a proxy gets none of them. */
export const PROXY_VARIABLES = ['http', 'https', 'all', 'no'].flatMap((kind) => [
  `${kind}_proxy`,
  `${kind.toUpperCase()}_PROXY`,
]);

export function withoutProxyVariables(env: Environment): Environment {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !PROXY_VARIABLES.includes(name)));
}

/** The proxy for a request to `target`, or none: the variable of its scheme, unless NO_PROXY names the host. */
export function proxyRouteFor(target: URL, env: Environment): ProxyRoute | undefined {
  // Lower case first, as curl and undici read them; an https:// shop falls back to HTTP_PROXY, as undici does.
  const names = ['http_proxy', 'HTTP_PROXY'];
  const proxy = firstSet(env, target.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY', ...names] : names);
  if (proxy === undefined) return undefined;
  const noProxy = firstSet(env, ['no_proxy', 'NO_PROXY']);
  if (noProxy !== undefined && bypassesProxy(noProxy.value, target)) return undefined;
  // Like curl, a proxy given without a scheme is an http:// one.
  return {
    url: /^[a-z][a-z0-9+.-]*:\/\//i.test(proxy.value) ? proxy.value : `http://${proxy.value}`,
    variable: proxy.name,
  };
}

/** Why this proxy URL cannot be used, if it cannot. */
export function proxyProblem(route: ProxyRoute): string | undefined {
  const url = URL.parse(route.url);
  if (url === null) return `${route.variable} is not a URL such as http://proxy.example:3128`;
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `${route.variable} must be an http:// or https:// proxy (got ${shownProxy(route.url)})`;
  if (url.hostname === '') return `${route.variable} names no host (got ${shownProxy(route.url)})`;
  return undefined;
}

/** A user name and password in it are never shown. */
export function shownProxy(proxyUrl: string): string {
  const url = URL.parse(proxyUrl);
  if (url === null) return '(not a URL)';
  const hadCredentials = url.username !== '' || url.password !== '';
  return `${url.protocol}//${url.host}${hadCredentials ? ' (credentials not shown)' : ''}`;
}

/**
 * NO_PROXY as curl reads it: entries separated by commas (or spaces); `*` alone excludes every host;
 * a name excludes itself and its subdomains, with or without a leading `.` or `*.`; an IP address or
 * a CIDR range excludes the addresses it covers; `host:port` excludes that port only.
 */
export function bypassesProxy(noProxy: string, target: URL): boolean {
  const host = target.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const targetPort = Number(target.port) || (target.protocol === 'https:' ? 443 : 80);
  for (const entry of noProxy.toLowerCase().split(/[\s,]+/)) {
    if (entry === '') continue;
    if (entry === '*') return true;
    // A port after one colon only: an IPv6 address has several, and no port unless in brackets.
    const [, bracketed, plain, port] = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(entry) ?? [];
    if (port !== undefined && Number(port) !== targetPort) continue;
    if (matchesHost(bracketed ?? plain ?? entry, host)) return true;
  }
  return false;
}

function firstSet(env: Environment, names: string[]): { name: string; value: string } | undefined {
  for (const name of names) {
    const value = env[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

function matchesHost(pattern: string, host: string): boolean {
  const [address, bits] = pattern.split('/');
  const family = isIP(address!);
  if (family !== 0) {
    if (isIP(host) !== family) return false;
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const range = new BlockList();
    try {
      if (bits === undefined) range.addAddress(address!, type);
      else range.addSubnet(address!, Number(bits), type);
    } catch {
      return false;
    }
    return range.check(host, type);
  }
  const domain = pattern.replace(/^\*?\./, '').replace(/\.$/, '');
  return domain !== '' && (host === domain || host.endsWith(`.${domain}`));
}
