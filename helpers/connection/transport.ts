// How the client's requests reach the shop, directly or through a forward proxy, trusting the CAs the
// settings give. No redirect is followed: a write is never replayed elsewhere, and a certificate names
// the address it certified.
import { Agent, type Dispatcher, Pool, ProxyAgent } from 'undici';
import { type ProxyRoute, shownProxy } from './proxy.ts';
import { trustedCas } from './trust.ts';

/** TargetConfig has them all: the connection reads nothing else of the suite's. */
export interface RouteSettings {
  baseUrl: string;
  embedded: boolean;
  proxy?: ProxyRoute;
  caFile?: string;
  tlsInsecure: boolean;
  timeoutMs: number;
}

const dispatchers = new Map<string, Dispatcher>();

/** One dispatcher per way of connecting, shared by every client of the process, so connections are reused. */
export function dispatcherFor(config: RouteSettings): Dispatcher {
  // The embedded reference listens on this machine's 127.0.0.1, which no proxy elsewhere can reach.
  const proxy = config.embedded ? undefined : config.proxy;
  const key = JSON.stringify([config.timeoutMs, proxy?.url, config.caFile, config.tlsInsecure]);
  if (!dispatchers.has(key)) dispatchers.set(key, build(config, proxy?.url));
  return dispatchers.get(key)!;
}

function build(config: RouteSettings, proxyUrl: string | undefined): Dispatcher {
  const limits = { headersTimeout: config.timeoutMs, bodyTimeout: config.timeoutMs, connections: 8 };
  const ca = config.caFile === undefined ? undefined : trustedCas(config.caFile);
  const shopTls = config.tlsInsecure ? { rejectUnauthorized: false } : ca ? { ca } : undefined;
  if (proxyUrl === undefined) return new Agent({ ...limits, connect: shopTls });
  return new ProxyAgent({
    ...limits,
    uri: proxyUrl,
    // An http:// shop is asked in absolute form, as curl does: proxies often allow CONNECT to port 443
    // only. An https:// shop is always reached through a CONNECT tunnel.
    proxyTunnel: false,
    requestTls: shopTls,
    proxyTls: ca ? { ca } : undefined,
    // Without this, the time limits would not reach the connection an http:// shop is asked over.
    factory: (origin, options) => new Pool(origin, { ...limits, ...options }),
  });
}

/** How the run reaches the shop, for its first line: empty when directly. */
export function routeDescription(config: RouteSettings): string {
  if (config.embedded || config.proxy === undefined) return '';
  return ` through the proxy ${shownProxy(config.proxy.url)} (${config.proxy.variable})`;
}

/** The warning every run with ZONES_TLS_INSECURE=1 prints, whatever else it prints. */
export function insecureWarning(config: RouteSettings): string | undefined {
  if (!config.tlsInsecure) return undefined;
  return `warning: ZONES_TLS_INSECURE=1: the TLS certificate of ${new URL(config.baseUrl).host} is not verified, so whatever answers at that address is certified as the shop`;
}
