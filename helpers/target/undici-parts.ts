// The parts of undici the client uses: three dispatchers and request(). undici's entry point loads all
// of undici (fetch, WebSocket, caches, mocks, SOCKS), about 120 ms of CPU in each process and worker
// thread that sends a request, where the parts take about 40 (process.cpuUsage, undici 7.30). A run
// loads them twice, in the launcher and in its worker, and npm test starts some seventy runs.
// If a later undici moves a file, the entry point is loaded instead: slower, never broken.
// selftest/undici-parts.test.ts checks that the parts are the entry point's own.
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

/** undici's request(), called on a dispatcher with origin and path given apart. */
type RequestOnDispatcher = (
  this: Undici.Dispatcher,
  options: Undici.Dispatcher.RequestOptions,
) => Promise<Undici.Dispatcher.ResponseData>;

export interface UndiciParts {
  Agent: typeof Undici.Agent;
  Pool: typeof Undici.Pool;
  ProxyAgent: typeof Undici.ProxyAgent;
  request: RequestOnDispatcher;
  /** Which way they were loaded, for the self-test. */
  loadedFrom: 'parts' | 'entry point';
}

let parts: UndiciParts | undefined;

export function undiciParts(): UndiciParts {
  parts ??= loadParts();
  return parts;
}

function loadParts(): UndiciParts {
  const require = createRequire(import.meta.url);
  try {
    const api = require('undici/lib/api/index.js') as { request: RequestOnDispatcher };
    const dispatcher = require('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
    // What the entry point does first of all: every dispatcher gets request(), connect() and the rest.
    // ProxyAgent opens its CONNECT tunnels with connect() on its own client.
    Object.assign(dispatcher.prototype, api);
    return {
      Agent: require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent,
      Pool: require('undici/lib/dispatcher/pool.js') as typeof Undici.Pool,
      ProxyAgent: require('undici/lib/dispatcher/proxy-agent.js') as typeof Undici.ProxyAgent,
      request: api.request,
      loadedFrom: 'parts',
    };
  } catch {
    const undici = require('undici') as typeof Undici;
    return {
      Agent: undici.Agent,
      Pool: undici.Pool,
      ProxyAgent: undici.ProxyAgent,
      request: undici.Dispatcher.prototype.request as RequestOnDispatcher,
      loadedFrom: 'entry point',
    };
  }
}

/** undici's request(url, options) through the given dispatcher, the URL split as undici splits it. */
export function requestThrough(
  dispatcher: Undici.Dispatcher,
  url: string,
  options: Omit<Undici.Dispatcher.RequestOptions, 'origin' | 'path'>,
): Promise<Undici.Dispatcher.ResponseData> {
  const parsed = new URL(url);
  return undiciParts().request.call(dispatcher, {
    ...options,
    origin: parsed.origin,
    path: parsed.search ? `${parsed.pathname}${parsed.search}` : parsed.pathname,
  });
}
