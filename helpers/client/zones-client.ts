// The zone API as the settings describe it: paths, envelopes, the list read across its pages, and the
// ownership guard. Tests never build a URL or a body themselves.
import type { TargetConfig } from '../config.ts';
import { type Answer, type AuthMode, isSuccessStatus, type Method } from '../evidence/exchange.ts';
import { parseJson, stringifyJson } from '../json.ts';
import { sleep } from '../pacing/throttle.ts';
import { findZone, namedIn } from './list-lookups.ts';
import { nextPageUrl, startListWalk } from './paging.ts';
import {
  listItems,
  PreconditionError,
  readZone,
  toZoneRecords,
  unreadable,
  wrapZone,
  type ZoneId,
  type ZoneRead,
  type ZoneRecord,
  type ZonesRead,
} from './records.ts';
import { ShopTransport, TransportError, type TransportOptions } from './shop-transport.ts';

export interface ListAnswer extends Answer {
  read: ZonesRead;
  pages: Answer[];
  filter?: string;
  /** The zone objects of the pages read, as the shop wrote them, even when their ids can't be read. */
  items: Record<string, unknown>[];
  /** Every page was read: `items` is all the shop listed. */
  itemsWhole: boolean;
}

export interface ZoneAnswer extends Answer {
  read: ZoneRead;
}

export class OwnershipError extends Error {
  constructor(method: Method, id: ZoneId) {
    super(`refused to send ${method} to zone ${id.text}: this run did not create it (ownership ledger)`);
    this.name = 'OwnershipError';
  }
}

/** What is written down of the run's zones, each the moment it happens: by the client, the clean-ups and the sweeps. */
export type ZoneEvent =
  /** target: the base URL, so a ledger is never applied to another shop. */
  | { event: 'created'; id: string; name: string; target?: string }
  /** Taken into care by `npm run sweep --by-prefix`: made by an earlier run whose ledger is lost. */
  | { event: 'adopted'; id: string; name: string; why: string; target?: string }
  /** Created, but its id could not be read (a wrong ZONES_ID_FIELD): `npm run sweep` finds it by name once ids read again. */
  | { event: 'named'; name: string; why: string; target?: string }
  /** Written before the PUT goes: an answer that never comes (a time-out, a killed run) may still have renamed the zone. */
  | { event: 'renamed'; id: string; name: string }
  | { event: 'deleted'; id: string }
  | { event: 'left'; id: string; reason: string };

/** Where the client writes down every zone it made, and asks before it changes one: ownership's Ledger. */
export interface ZoneLedger {
  owns(id: string): boolean;
  isDeleted(id: string): boolean;
  record(entry: ZoneEvent): void;
}

export interface ClientOptions extends TransportOptions {
  ledger: ZoneLedger;
  /** Told when a list needed re-reading before a write showed, and for how long. */
  onLag?: (waitedMs: number) => void;
}

/** Read-after-write lag (ZONES_CONSISTENCY_TIMEOUT_MS): re-read until the list satisfies this, or wait the timeout out first ('after-timeout', for checks that a call changed nothing). */
export type Settle = ((list: ListAnswer) => boolean) | 'after-timeout';

const MAX_PAGES = 1000;
const SETTLE_POLL_MS = 200;

export class ZonesClient {
  readonly transport: ShopTransport;
  readonly ledger: ZoneLedger;
  private readonly extraFields: Record<string, unknown>;
  private readonly creationListeners: ((id: ZoneId) => void)[] = [];

  constructor(
    readonly config: TargetConfig,
    private readonly options: ClientOptions,
  ) {
    this.transport = new ShopTransport(config, options);
    this.ledger = options.ledger;
    this.extraFields = parseJson(config.extraFields) as Record<string, unknown>;
  }

  /** Told of every zone a create brought into being, so its owner can clean it up. */
  whenCreated(listener: (id: ZoneId) => void): void {
    this.creationListeners.push(listener);
  }

  /** The same client at the shop's own page size: the preflight asks with it once more when the shop refuses ZONES_PAGE_SIZE. */
  withoutPageSize(): ZonesClient {
    return new ZonesClient({ ...this.config, pageSize: undefined }, this.options);
  }

  collectionUrl(): string {
    return `${this.config.baseUrl}/admin/api/${this.config.apiVersion}/zones.json`;
  }

  zoneUrl(id: ZoneId): string {
    return `${this.config.baseUrl}/admin/api/${this.config.apiVersion}/zones/${encodeURIComponent(id.text)}.json`;
  }

  async listZones(options: { status?: string; auth?: AuthMode; settle?: Settle } = {}): Promise<ListAnswer> {
    const patience = this.config.consistencyTimeoutMs;
    if (options.settle === undefined || patience === 0) return this.readList(options);
    if (options.settle === 'after-timeout') {
      await sleep(patience);
      return this.readList(options);
    }
    const started = Date.now();
    let list = await this.readList(options);
    while (!options.settle(list) && Date.now() - started < patience) {
      await sleep(Math.min(SETTLE_POLL_MS, patience));
      list = await this.readList(options);
      if (options.settle(list)) this.options.onLag?.(Date.now() - started);
    }
    return list;
  }

  private async readList({ status, auth }: { status?: string; auth?: AuthMode }): Promise<ListAnswer> {
    const url = new URL(this.collectionUrl());
    if (status !== undefined) url.searchParams.set(this.config.statusParam, this.config.filterValues[status] ?? status);
    // On the first page only: the walks build page numbers and cursors from this URL, a Link is the shop's own.
    if (this.config.pageSize !== undefined)
      url.searchParams.set(this.config.pageSizeParam, String(this.config.pageSize));
    const walk = startListWalk(this.config, url.toString());
    const pages: Answer[] = [];
    const zones: ZoneRecord[] = [];
    const items: Record<string, unknown>[] = [];
    let next: string | undefined = url.toString();
    let problem: string | undefined;
    let pastLastPage = false;
    while (next !== undefined) {
      // A list cut short proves nothing about what it lacks: the check cannot be made, not failed.
      if (pages.length === MAX_PAGES)
        throw new PreconditionError(`the list runs past ${MAX_PAGES} pages, so it cannot be read whole`);
      if (new URL(next).origin !== url.origin)
        throw new PreconditionError(
          `the list's next page is on another host (${new URL(next).origin}); the credential is not sent there`,
        );
      const page = await this.transport.send('GET', next, auth ?? 'valid');
      pages.push(page);
      if (!isSuccess(page)) {
        // A 404 past the last page number (Django REST framework's) ends the list; a cursor or Link that leads nowhere is the shop's error.
        pastLastPage = this.config.paging === 'page' && pages.length > 1 && page.status === 404;
        break;
      }
      const pageItems = listItems(this.config, page.body);
      if (!pageItems.ok) {
        problem = pageItems.problem;
        break;
      }
      items.push(...pageItems.items);
      const read = toZoneRecords(this.config, pageItems.items);
      if (!read.ok) {
        problem ??= read.problem;
        // Records whose ids can't be read still count as read, and a Link header still says where the
        // list goes on, so the preflight knows what the shop holds when ZONES_ID_FIELD is wrong.
        next = this.config.paging === 'link' ? nextPageUrl(page.exchange.responseHeaders.link, next) : undefined;
        continue;
      }
      const step = walk({ url: next, body: page.body, link: page.exchange.responseHeaders.link, zones: read.zones });
      zones.push(...step.zones);
      next = step.next;
    }
    // A walk that broke off, or ended for want of ids, did not read the whole list.
    const whole = next === undefined && (problem === undefined || this.config.paging === 'link');
    // The 404 past the last page stays among the pages, as evidence; the list's answer is the page before.
    const last = pages[pages.length - (pastLastPage ? 2 : 1)]!;
    return {
      ...last,
      pages,
      read: problem === undefined ? { ok: true, zones } : unreadable(problem),
      filter: status,
      items,
      itemsWhole: whole || pastLastPage,
    };
  }

  async createZone(fields: Record<string, unknown>, auth: AuthMode = 'valid'): Promise<ZoneAnswer> {
    return this.createFromText(this.bodyText(fields), typeof fields.name === 'string' ? fields.name : undefined, auth);
  }

  /** A create whose body goes out as given, or without one, as the robustness probes send; `name` is the run-unique one it carries. */
  async createFromText(body: string | undefined, name?: string, auth: AuthMode = 'valid'): Promise<ZoneAnswer> {
    let answer: Answer;
    try {
      answer = await this.transport.send('POST', this.collectionUrl(), auth, body);
    } catch (error) {
      // Never re-send a create whose outcome is unknown: look for what it made, and own that.
      if (error instanceof TransportError && name !== undefined) await this.adoptByName(name);
      throw error;
    }
    const read = readZone(this.config, answer.body);
    // Whatever credential was used: a zone that exists because of us is ours to clean up.
    if (isSuccess(answer) && read.ok) {
      this.recordMade(read.zone.id, name ?? String(read.zone.name));
    } else if (isSuccess(answer) && name !== undefined) {
      // A success that shows no zone still made one: find it by its unique name.
      await this.adoptByName(name);
    }
    return { ...answer, read };
  }

  async updateZone(id: ZoneId, fields: Record<string, unknown>, auth: AuthMode = 'valid'): Promise<ZoneAnswer> {
    const wasDeleted = this.ledger.isDeleted(id.text);
    const answer = await this.writeTo('PUT', id, auth, this.bodyText(fields), fields.name);
    // A PUT that succeeds on an id this run deleted has made the zone anew ("create or replace"): ours to remove.
    if (wasDeleted && isSuccess(answer)) this.recordMade(id, String(fields.name));
    return { ...answer, read: readZone(this.config, answer.body) };
  }

  async deleteZone(id: ZoneId, auth: AuthMode = 'valid'): Promise<Answer> {
    const answer = await this.writeTo('DELETE', id, auth);
    if (isSuccess(answer) && this.ledger.owns(id.text)) this.ledger.record({ event: 'deleted', id: id.text });
    return answer;
  }

  async adoptByName(name: string): Promise<ZoneRecord[]> {
    const list = await this.listZones({ settle: (l) => namedIn(l, name).length > 0 });
    return this.adopt(namedIn(list, name), name);
  }

  /** Zones found carrying a mark only this run sent (its unique name, in whatever form the shop kept it), into the ledger. */
  adopt(found: ZoneRecord[], name: string): ZoneRecord[] {
    // A deleted id listed under our unique name again is a zone we made anew under a reused id.
    for (const { id } of found) this.recordMade(id, name, this.ledger.owns(id.text) && !this.ledger.isDeleted(id.text));
    return found;
  }

  /** A zone that exists because of this run: into the ledger (unless there already), and to whoever cleans up after it. */
  private recordMade(id: ZoneId, name: string, inLedger = false): void {
    if (!inLedger) this.ledger.record({ event: 'created', id: id.text, name, target: this.config.baseUrl });
    for (const listener of this.creationListeners) listener(id);
  }

  /**
   * The guard that keeps the suite off other people's zones: a write goes only to a zone this run made,
   * and to an id it deleted (some stores reuse ids) only while the list shows no zone under it; with one
   * test at a time per shop, nothing of the run can take the id between that read and the write.
   */
  private async writeTo(
    method: 'PUT' | 'DELETE',
    id: ZoneId,
    auth: AuthMode,
    body?: string,
    name?: unknown,
  ): Promise<Answer> {
    if (method === 'DELETE' && id.text === this.config.bookedZoneId)
      return this.transport.send(method, this.zoneUrl(id), auth);
    if (!this.ledger.owns(id.text)) throw new OwnershipError(method, id);
    if (this.ledger.isDeleted(id.text)) {
      const { read } = await this.listZones();
      const why = !read.ok
        ? 'the list cannot be read'
        : findZone(read.zones, id) && 'the list shows a zone under that id again';
      if (why) throw new PreconditionError(`zone ${id.text} was deleted by this run, and ${why}; it is left alone`);
    }
    // `npm run sweep` knows a zone by a name the run gave it: written before the PUT goes, whatever the
    // credential, as its answer may never come. A name that is not text no name comparison can trust.
    if (method === 'PUT' && typeof name === 'string') this.ledger.record({ event: 'renamed', id: id.text, name });
    return this.transport.send(method, this.zoneUrl(id), auth, body);
  }

  /** A create or update body as the settings shape it: the envelope, and ZONES_EXTRA_FIELDS. */
  bodyText(fields: Record<string, unknown>): string {
    return stringifyJson(wrapZone(this.config, { ...this.extraFields, ...fields }));
  }
}

export function isSuccess(answer: Answer): boolean {
  return isSuccessStatus(answer.status);
}

export function isRefusal(answer: Answer): boolean {
  return answer.status >= 400 && answer.status <= 499;
}
