// Before any test, prove that the settings reach the shop and fit it: one list read, then one create
// with the configured body, the read-back of its id through ZONES_ID_FIELD, and its delete. Each way
// this goes wrong is a setting to fix, not a rule the shop broke, so the run stops (exit 3) with one
// line that names the setting and shows the answer behind it, instead of a wall of failed rules.
// Whatever the preflight made is removed before it stops, even when ids can't be read. A shop that can't
// be reached as configured (a certificate not trusted, a proxy in the way, a redirect) is told the same way.

import { findZone, namedIn, zonesOf } from '../client/list-lookups.ts';
import { PreconditionError, type ZoneId, zoneIdOf, zoneItem } from '../client/records.ts';
import {
  BodyLimitError,
  cameBack,
  ranOutOfTime,
  ShopUnavailableError,
  TransportError,
} from '../client/shop-transport.ts';
import { NotJsonBody } from '../client/what-came-back.ts';
import { isRefusal, isSuccess, type ListAnswer, type ZonesClient } from '../client/zones-client.ts';
import type { TargetConfig } from '../config.ts';
import { shownProxy } from '../connection/proxy.ts';
import { certificateAdvice, isCertificateCode } from '../connection/trust.ts';
import type { Answer, Exchange } from '../evidence/exchange.ts';
import { CannotRunError } from '../exit-codes.ts';
import { parseJson } from '../json.ts';
import { PREFLIGHT_TAG, zoneName } from '../ownership/run-names.ts';
import { outageFor } from '../pacing/outage.ts';
import { SETTABLE_FIELDS } from '../settings.ts';

export interface PreflightOptions {
  runId: string;
  /** A line for the person waiting, while a request goes unanswered. */
  onWaiting?: (line: string) => void;
}

const WAITING_NOTICE_MS = 5_000;
const BODY_EXCERPT = 300;

export async function preflight(api: ZonesClient, options: PreflightOptions): Promise<void> {
  const config = api.config;
  const list = await asked(api, `GET ${api.collectionUrl()}`, options, () => api.listZones());
  if (list.status === 401 || list.status === 403) throw new CannotRunError(tokenRejected(api, 'GET', list));
  // Before anything is created: a base URL that redirects is a setting to fix, not an answer.
  if (list.status >= 300 && list.status <= 399) throw new CannotRunError(redirectedList(config, list));
  await provePageSize(api, list, options);
  if (list.status === 404) throw pathNotFound(config, api.collectionUrl());
  // Any other answer (405, a 500...) is the shop's to answer for: the rules judge it, PATH-01 first.
  // A gateway's 502, 503 or 504 never gets here: the client throws ShopUnavailableError for it.
  if (!isSuccess(list)) return;
  // No body, or not JSON at all (a gateway's sign-in page, say): no envelope setting could read it, so none is blamed.
  if (list.body instanceof NotJsonBody || list.body === undefined) {
    const what = list.body === undefined ? ' with an empty body, so no list came back' : `, but ${list.body.why}`;
    throw new CannotRunError(
      `GET ${list.exchange.url} answered ${list.status}${what}; check ZONES_BASE_URL and the way to the shop`,
    );
  }
  if (!list.read.ok) {
    // What the answer holds instead, so that the right key can be read off the message.
    const members =
      list.body !== null && typeof list.body === 'object' && !Array.isArray(list.body)
        ? `; the body's members are ${fieldNames(list.body as Record<string, unknown>)}`
        : '';
    const fields = list.items.length > 0 ? `; its records have the fields ${fieldNames(list.items[0]!)}` : members;
    const key = config.envelope === 'wrapped' ? `, ZONES_LIST_KEY=${config.listKey}` : '';
    throw new CannotRunError(
      `the zone list at ${api.collectionUrl()} cannot be read with ZONES_ENVELOPE=${config.envelope}${key} and ZONES_ID_FIELD=${config.idField}: ${list.read.problem}${fields}`,
    );
  }
  const name = zoneName(options.runId, PREFLIGHT_TAG, 1);
  try {
    await proveCreate(api, name, options);
  } catch (error) {
    if (!(error instanceof TransportError || error instanceof PreconditionError)) throw error;
    // No answer to a read-back or delete, or a list that can't be followed: stop, leaving nothing findable behind.
    await removeByName(api, name);
    throw new CannotRunError(`the preflight could not finish: ${error.message.split('\n')[0]}`);
  }
}

/**
 * A shop that refuses the page size would fail every rule for a setting. So a refused first read is asked
 * again without it: answered then, the run stops naming ZONES_PAGE_SIZE; refused again, the refusal is the shop's.
 */
async function provePageSize(api: ZonesClient, list: ListAnswer, options: PreflightOptions): Promise<void> {
  const { pageSize, pageSizeParam } = api.config;
  // 429 is the shop's pace, not its view of the request (401 and 403, the token's, are told before).
  if (pageSize === undefined || !isRefusal(list) || list.status === 429) return;
  const without = api.withoutPageSize();
  const again = await asked(without, `GET ${without.collectionUrl()}`, options, () => without.listZones());
  if (!isSuccess(again)) return;
  throw new CannotRunError(
    `the shop refuses ZONES_PAGE_SIZE=${pageSize} sent as ZONES_PAGE_SIZE_PARAM=${pageSizeParam}: GET ${list.exchange.url} answered ${list.status} (${excerpt(list)}), and ${again.status} without it; set ZONES_PAGE_SIZE to a size the shop takes and ZONES_PAGE_SIZE_PARAM to the parameter it reads, or leave ZONES_PAGE_SIZE empty for the shop's own page size`,
  );
}

/** One create with the configured body, its id read back through the list, and its delete. */
async function proveCreate(api: ZonesClient, name: string, options: PreflightOptions): Promise<void> {
  const config = api.config;
  const fields = { name, coverage: parseJson(config.coverageSamples[0]!) };
  const created = await asked(api, `POST ${api.collectionUrl()}`, options, () => api.createZone(fields), name);
  const stop = async (message: string): Promise<never> => {
    await removeByName(api, name);
    throw new CannotRunError(message);
  };
  if (created.status === 401 || created.status === 403) await stop(tokenRejected(api, 'POST', created));
  // A 4xx that refuses what was sent (401 and 403 are told above); a 405 is PATH-01's business.
  if (isRefusal(created) && ![404, 405, 429].includes(created.status)) {
    await stop(
      `POST ${api.collectionUrl()} refuses the create body the settings make (answered ${created.status}: ${excerpt(created)}); set ZONES_COVERAGE_SAMPLES to coverage values the shop accepts (the first is sent), and ZONES_EXTRA_FIELDS to any field it requires besides name and coverage`,
    );
  }
  // 404 or 405 where a GET has just answered, 5xx: the rules will say what (PATH-01 first); nothing of ours stays.
  if (!isSuccess(created)) return void (await removeByName(api, name));

  let id: ZoneId;
  if (created.read.ok) {
    id = created.read.zone.id;
  } else {
    // The answer shows no zone with an id (the shapes are not shown): the list, by its unique name.
    const found = await api.listZones({ settle: (l) => namedItem(l, name) !== undefined });
    const listed = namedItem(found, name);
    const zone = namedIn(found, name)[0];
    if (!zone && listed !== undefined) return stopForIdField(api, name, 'the listed zone', listed);
    const item = zoneItem(config, created.body);
    if (!zone && item.ok) return stopForIdField(api, name, "the create answer's zone", item.item);
    // Not listed at all: CREATE-01 will say so, and there is nothing to delete.
    if (!zone) return;
    id = zone.id;
  }

  const readBack = await api.listZones({ settle: (l) => findZone(zonesOf(l), id) !== undefined });
  if (isSuccess(readBack) && !readBack.read.ok)
    return stopForIdField(api, name, 'the listed zone', namedItem(readBack, name) ?? readBack.items[0] ?? {});
  const underOtherId = readBack.read.ok && !findZone(readBack.read.zones, id) ? namedIn(readBack, name)[0] : undefined;
  if (underOtherId) {
    await stop(
      `the create answer gives the new zone the id ${id.text} in "${config.idField}" (ZONES_ID_FIELD), but the list shows it under ${underOtherId.id.text}: the two answers keep ids in different fields; its listed fields are ${fieldNames(underOtherId.raw)}`,
    );
  }
  // Whatever the delete answers, the zone is in the ledger: DELETE-01 judges it, the final sweep retries.
  await api.deleteZone(id);
}

/**
 * The zone was made, but ZONES_ID_FIELD does not find its id. Remove it anyway when that is provably
 * safe, then stop naming the setting; if it can't be removed, say so and leave it to `npm run sweep`.
 */
async function stopForIdField(
  api: ZonesClient,
  name: string,
  where: string,
  item: Record<string, unknown>,
): Promise<never> {
  const why = `its id is not in "${api.config.idField}" (ZONES_ID_FIELD)`;
  api.ledger.record({ event: 'named', name, why, target: api.config.baseUrl });
  const removal = await removeUnidentified(api, name);
  const problem = `${where} has no usable "${api.config.idField}" (ZONES_ID_FIELD); its fields are ${fieldNames(item)}`;
  throw new CannotRunError(
    'field' in removal
      ? `${problem}. The zone the preflight made was deleted (its id was in "${removal.field}": set ZONES_ID_FIELD=${removal.field}?)`
      : `${problem}. The zone the preflight made, ${name}, is still on the shop (${removal.why}): fix ZONES_ID_FIELD, then run npm run sweep -- --yes to delete it`,
  );
}

const ID_LIKE = /(^|_|-)(id|uuid|key)$|Id$/i;
const MAX_ID_GUESSES = 4;

/** The text a field's value would have in a path, for fields that could be an id at all. */
const idText = (value: unknown): string | undefined => zoneIdOf(value)?.text;

/**
 * Delete the zone named `name` although its id field is unknown. A DELETE touches only the zone whose id is in
 * its path, so a value is tried only when no other zone of the whole list shows it in any field: then no other
 * listed zone can have it as its id. Tried values go in the ledger first, as the ownership guard requires.
 */
async function removeUnidentified(api: ZonesClient, name: string): Promise<{ field: string } | { why: string }> {
  let list: ListAnswer;
  try {
    list = await api.listZones();
  } catch (error) {
    return { why: `the list could not be read: ${(error as Error).message.split('\n')[0]}` };
  }
  if (!list.itemsWhole) return { why: 'the list could not be read whole, so no id can be proved to be its alone' };
  const mine = list.items.filter((item) => item.name === name);
  if (mine.length !== 1) return { why: `the list shows ${mine.length} zones under its name` };
  const taken = new Set(
    list.items.filter((item) => item !== mine[0]).flatMap((item) => Object.values(item).map(idText)),
  );
  const guesses = Object.entries(mine[0]!)
    .filter(
      ([field, value]) => !SETTABLE_FIELDS.includes(field) && idText(value) !== undefined && !taken.has(idText(value)),
    )
    .sort(([a], [b]) => Number(ID_LIKE.test(b)) - Number(ID_LIKE.test(a)))
    .slice(0, MAX_ID_GUESSES);
  for (const [field, value] of guesses) {
    const id = { text: idText(value)! };
    const why = `preflight: its id guessed from "${field}"`;
    api.ledger.record({ event: 'adopted', id: id.text, name, why, target: api.config.baseUrl });
    const answer = await api.deleteZone(id).catch(() => undefined);
    if (!answer || !isSuccess(answer)) continue;
    // A delete that worked ends the guessing: the list it was proved against may lag behind it, and a
    // further guess would stand on a stale list.
    const gone = (l: ListAnswer) => l.itemsWhole && !l.items.some((item) => item.name === name);
    const after = await api.listZones({ settle: gone }).catch(() => undefined);
    if (after !== undefined && gone(after)) return { field };
    return { why: `a DELETE by "${field}" was answered ${answer.status}, yet the list still shows it` };
  }
  return {
    why:
      guesses.length === 0
        ? 'none of its fields can be proved to be its id'
        : `a DELETE by each of ${guesses.map(([f]) => f).join(', ')} was refused`,
  };
}

/** Zones that carry the preflight's name, listed with readable ids: ours, so they go. */
async function removeByName(api: ZonesClient, name: string): Promise<void> {
  try {
    const list = await api.listZones();
    for (const zone of api.adopt(namedIn(list, name), name)) await api.deleteZone(zone.id);
  } catch {
    // The run stops anyway; the ledger holds what was adopted, and the stop message is what matters.
  }
}

/** Ask, printing a line every few seconds while no answer comes, and turn "no answer" into exit 3. */
async function asked<T>(
  api: ZonesClient,
  what: string,
  options: PreflightOptions,
  ask: () => Promise<T>,
  createdName?: string,
): Promise<T> {
  const started = Date.now();
  const timer = setInterval(() => {
    const seconds = Math.round((Date.now() - started) / 1000);
    // Answers are coming, only not the shop's: say so, rather than blame the time limit.
    const outage = outageFor(api.config.baseUrl).start;
    options.onWaiting?.(
      outage
        ? `zones-conformance: the shop is not answering for itself (${outage.what}); asking again (${seconds} s so far)`
        : `zones-conformance: waiting for an answer to ${what} (${seconds} s so far; the limit is ZONES_TIMEOUT_MS=${api.config.timeoutMs})`,
    );
  }, WAITING_NOTICE_MS);
  try {
    return await ask();
  } catch (error) {
    // Answers came, but the pages lead somewhere the suite cannot follow (ZONES_PAGING).
    if (error instanceof PreconditionError) {
      // A next page on another host is most often the shop naming itself by another address.
      const address = /another host/.test(error.message)
        ? ", or with ZONES_BASE_URL (the shop's own links name another address)"
        : '';
      throw new CannotRunError(
        `the zone list at ${api.collectionUrl()} cannot be read with ZONES_PAGING=${api.config.paging}${address}: ${error.message}`,
      );
    }
    if (!(error instanceof TransportError)) throw error;
    // createZone has already looked for a zone that a lost answer may have made, and owns it.
    if (createdName !== undefined) await removeByName(api, createdName);
    const exchange = error.exchange;
    // An answer came, but past a limit: the message names the limit, its setting and how the body began.
    if (error instanceof BodyLimitError) throw new CannotRunError(error.message);
    // A gateway's answer, not the shop's: there is nothing to judge tonight, and no setting to blame.
    // No answer at all is told below as before (a time limit, a closed port), however long it lasted.
    if (error instanceof ShopUnavailableError && exchange.status !== undefined) {
      const asking = Math.round((Date.now() - Date.parse(error.outage.since)) / 1000);
      const again = asking > 0 ? `, and the same for ${asking} s of asking again` : '';
      throw new CannotRunError(
        `the shop is not answering for itself: ${cameBack(exchange)}${again}. A gateway or a maintenance or sign-in front answers in its place, so nothing can be judged; run again once the shop answers`,
      );
    }
    if (ranOutOfTime(exchange, api.config.timeoutMs))
      throw new CannotRunError(
        `the target does not answer: ${what} got no answer within ${api.config.timeoutMs} ms (ZONES_TIMEOUT_MS)`,
      );
    throw new CannotRunError(unreachable(api.config, api.collectionUrl(), exchange));
  } finally {
    clearInterval(timer);
  }
}

/** How a refused credential begins when the token is the likely cause, as drift reads it: the operator's slip, not the shop's style. */
export const TOKEN_REJECTED = 'the target rejects the access token';

/**
 * A credential refused. A challenge (WWW-Authenticate) for another scheme than the one sent says the shop reads the
 * credential another way, a setting; else the token is the first suspect.
 */
function tokenRejected(api: ZonesClient, method: string, answer: Answer): string {
  const asked = `${method} ${api.collectionUrl()} answered ${answer.status}`;
  const challenge = answer.exchange.responseHeaders['www-authenticate']?.trim().split(/[\s,]/)[0] ?? '';
  const { authHeader, authScheme } = api.config;
  if (challenge !== '' && challenge.toLowerCase() !== authScheme.toLowerCase()) {
    const sent =
      authScheme === '' ? `in ${authHeader} with no scheme` : `in ${authHeader} with the scheme ${authScheme}`;
    return `the target asks for the credential by the scheme ${challenge} (${asked} with WWW-Authenticate: ${challenge}), but it is sent ${sent}; set ZONES_AUTH_HEADER and ZONES_AUTH_SCHEME to the way the target reads it (for ${challenge}, most often Authorization and ${challenge})`;
  }
  return `${TOKEN_REJECTED} (${asked}); check ZONES_ACCESS_TOKEN, ZONES_AUTH_HEADER and ZONES_AUTH_SCHEME`;
}

function pathNotFound(config: TargetConfig, url: string): CannotRunError {
  const path = new URL(config.baseUrl).pathname.replace(/\/+$/, '');
  const which =
    path !== ''
      ? `ZONES_BASE_URL has the path "${path}": unless that is the shop's own prefix, it should be the shop's address alone, since the suite adds /admin/api/${config.apiVersion}/zones.json itself (try ${new URL(config.baseUrl).origin}); else check ZONES_API_VERSION`
      : `check ZONES_BASE_URL and ZONES_API_VERSION`;
  return new CannotRunError(`GET ${url} answered 404, so the documented path is not there: ${which}`);
}

function namedItem(list: ListAnswer, name: string): Record<string, unknown> | undefined {
  return list.items.find((item) => item.name === name);
}

function fieldNames(item: Record<string, unknown>): string {
  return Object.keys(item).join(', ') || '(none)';
}

function excerpt(answer: Answer): string {
  const body = answer.exchange.responseBody.trim();
  if (body === '') return 'no body';
  return body.length > BODY_EXCERPT ? `${body.slice(0, BODY_EXCERPT)}...` : body;
}

const NOT_FOLLOWED =
  'the suite follows no redirect, since a write must not be replayed at another address and a certificate must name the address it certified';

/** A list that answers with a redirect: the address to use instead, when the redirect shows it. */
function redirectedList(config: TargetConfig, answer: Answer): string {
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
