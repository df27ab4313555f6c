// The ownership ledger: every zone this run created, appended the moment the create answer arrives. The
// client asks it before every PUT or DELETE; the final sweep and `npm run sweep` read it back.
import {
  appendFileSync,
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import type { ZoneEvent } from '../client/zones-client.ts';

/** Beside the reports, where `npm run sweep` finds them. */
function ledgersDir(reportsDir: string): string {
  return join(reportsDir, 'ledgers');
}

/** A run's ledger, named by its run id; one per target when a run certifies several (the gallery). */
export function runLedgerPath(reportsDir: string, runId: string, targetName?: string): string {
  return join(ledgersDir(reportsDir), `${runId}${targetName ? `-${targetName}` : ''}.jsonl`);
}

export function sweepLedgerPath(reportsDir: string, sweepId: string): string {
  return join(ledgersDir(reportsDir), `sweep-${sweepId}.jsonl`);
}

/** The ledger of the sweep's list reads. They create nothing, so it stays empty; the client needs one all the same. */
export function sweepReaderLedgerPath(reportsDir: string): string {
  return join(ledgersDir(reportsDir), '.sweep-reader.jsonl');
}

/** In the order of their names: run ids sort by time. */
export function ledgersIn(reportsDir: string): string[] {
  const dir = ledgersDir(reportsDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(dir, f));
}

export type LedgerEvent = ZoneEvent & { at: string };

export class Ledger {
  /** By each id's latest event: a store that hands out max(id) + 1 gives a deleted id to the next create, maybe ours. */
  private readonly state = new Map<string, 'live' | 'deleted'>();
  /** Whole lines only, so a line being written is read once it is whole. */
  private learntBytes = 0;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    // Several processes of one run may share the file; each learns what the others did.
    this.learn();
  }

  /** What the file gained since the last look: reading it whole for each zone made a tear-down quadratic. */
  private learn(): void {
    if (!existsSync(this.path)) return;
    const fd = openSync(this.path, 'r');
    try {
      const size = fstatSync(fd).size;
      if (size <= this.learntBytes) return;
      const added = Buffer.alloc(size - this.learntBytes);
      const read = readSync(fd, added, 0, added.length, this.learntBytes);
      const whole = added.subarray(0, added.subarray(0, read).lastIndexOf('\n') + 1);
      this.learntBytes += whole.length;
      for (const entry of parseLedger(whole.toString('utf8'))) this.apply(entry);
    } finally {
      closeSync(fd);
    }
  }

  private apply(entry: LedgerEvent): void {
    if (entry.event === 'created' || entry.event === 'adopted') this.state.set(entry.id, 'live');
    else if (entry.event === 'deleted' && this.state.has(entry.id)) this.state.set(entry.id, 'deleted');
  }

  /** Created (or adopted) by this run at some point, whether or not it has been deleted since. */
  owns(id: string): boolean {
    if (this.state.has(id)) return true;
    this.learn();
    return this.state.has(id);
  }

  /** The latest event of this id is its delete: tear-down need not try again, and a write needs care. */
  isDeleted(id: string): boolean {
    if (this.state.get(id) !== 'deleted') return false;
    // Another process of the run (a worker, the preflight) may have created it anew since.
    this.learn();
    return this.state.get(id) === 'deleted';
  }

  record(entry: ZoneEvent): void {
    const event = { ...entry, at: new Date().toISOString() };
    this.apply(event);
    // One small write with O_APPEND per event: lines from parallel workers do not interleave.
    appendFileSync(this.path, `${JSON.stringify(event)}\n`);
  }
}

export function readLedger(path: string): LedgerEvent[] {
  return existsSync(path) ? parseLedger(readFileSync(path, 'utf8')) : [];
}

function parseLedger(text: string): LedgerEvent[] {
  const entries: LedgerEvent[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      entries.push(JSON.parse(line) as LedgerEvent);
    } catch {
      // A line cut short by a killed run: the lines around it are still good.
    }
  }
  return entries;
}

/** Ids created and not deleted, with every name the run gave each in the order sent (the last may be one the shop refused). */
export function stillOwned(entries: readonly LedgerEvent[], target: string): Map<string, string[]> {
  const open = new Map<string, string[]>();
  for (const entry of entries) {
    // A create starts the id's names afresh (a store that reuses ids); older ledgers record no target.
    if ((entry.event === 'created' || entry.event === 'adopted') && (entry.target ?? target) === target)
      open.set(entry.id, [entry.name]);
    if (entry.event === 'renamed') open.get(entry.id)?.push(entry.name);
    if (entry.event === 'deleted') open.delete(entry.id);
  }
  return open;
}

const ledgers = new Map<string, Ledger>();

/** One ledger object per file and process, so every client of a worker sees the same ownership. */
export function ledgerAt(path: string): Ledger {
  if (!ledgers.has(path)) ledgers.set(path, new Ledger(path));
  return ledgers.get(path)!;
}
