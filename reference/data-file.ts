// A mock's zones kept on disk (`--data FILE`): read whole at start, written whole after each change,
// through a temporary file and a rename, so that a crash mid-write leaves the last whole file behind.
// A file this mock did not write is refused and left exactly as it was: it may be somebody's data.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseExactJson, toJsonText } from './json.ts';
import type { StoredZone, ZoneStore } from './zone-store.ts';

const FORMAT = 'zones-conformance mock data';
const VERSION = 1;

export class DataFileError extends Error {}

/** What a data file keeps of a zone: what the API shows of it, and its booking history. */
type KeptZone = Pick<StoredZone, 'id' | 'name' | 'coverage' | 'status' | 'createdAt' | 'updatedAt' | 'bookings'>;

function kept({ id, name, coverage, status, createdAt, updatedAt, bookings }: StoredZone): KeptZone {
  return { id, name, coverage, status, createdAt, updatedAt, bookings };
}

/** Why a kept zone cannot be read back, or undefined when it can. */
function zoneProblem(zone: unknown, seen: Set<string>): string | undefined {
  if (zone === null || typeof zone !== 'object' || Array.isArray(zone)) return 'a zone is not an object';
  const { id, name, status, createdAt, updatedAt, bookings, coverage } = zone as Record<string, unknown>;
  if (typeof id !== 'string' || id === '') return 'a zone has no id';
  if (seen.has(id)) return `the id ${id} is kept twice`;
  seen.add(id);
  if (typeof name !== 'string' || coverage === undefined) return `zone ${id} has no name or no coverage`;
  if (status !== undefined && typeof status !== 'string') return `zone ${id} has a status that is not text`;
  if (typeof createdAt !== 'string' || typeof updatedAt !== 'string') return `zone ${id} has no times`;
  if (!Number.isInteger(Number(bookings)) || Number(bookings) < 0) return `zone ${id} has no booking count`;
  return undefined;
}

/** Fills `store` from the file at `path`; a missing file is an empty shop, written now so that the path is proved writable. */
export function loadDataFile(path: string, store: ZoneStore): void {
  if (!existsSync(path)) {
    saveDataFile(path, store);
    return;
  }
  const refuse = (why: string): never => {
    throw new DataFileError(`${path} is not a data file this mock wrote (${why}); it was left as it was`);
  };
  let data: unknown;
  try {
    data = parseExactJson(readFileSync(path, 'utf8'));
  } catch (error) {
    refuse(error instanceof Error ? error.message : String(error));
  }
  const { format, version, zones } = (data ?? {}) as Record<string, unknown>;
  if (format !== FORMAT || Number(version) !== VERSION || !Array.isArray(zones))
    refuse(`no "format": "${FORMAT}", "version": ${VERSION} and "zones"`);
  const seen = new Set<string>();
  const problem = (zones as unknown[]).map((zone) => zoneProblem(zone, seen)).find((why) => why !== undefined);
  if (problem !== undefined) refuse(problem);
  for (const zone of zones as KeptZone[]) {
    store.put({
      ...zone,
      bookings: Number(zone.bookings),
      statusAtCreation: zone.status ?? '',
      awaitingFirstUpdate: false,
      softDeleted: false,
    });
  }
}

export function saveDataFile(path: string, store: ZoneStore): void {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${toJsonText({ format: FORMAT, version: VERSION, zones: store.all().map(kept) })}\n`);
  renameSync(temporary, path);
}
