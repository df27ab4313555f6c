// Bodies as the reports show them: whole up to a fixed size, past it cut, the whole body kept once in a
// file of its own. A shop that accepts ROBUST-04's 1 MiB create would otherwise put that body into
// every report and curl command, and a job summary cut at 1 MB would lose what comes after it.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Secrets } from './secrets.ts';

/** A list page of a few dozen zones, the longest body a reader needs whole; longer ones are padding, floods or lists too long to read. */
export const SHOWN_BODY_BYTES = 8 * 1024;

const BODIES_FOLDER = 'bodies';

/** The first bodies a run keeps whole: a shop that answers padding to every request must not fill the CI's artifact store. */
const KEPT_BODIES_CAP = { files: 200, bytes: 50 * 1024 * 1024 };

/** In the bodies folder: the hash of each body past the cap, a line each, for the report's note. */
const NOT_KEPT_FILE = 'not-kept.list';

/** The body cut at SHOWN_BODY_BYTES, with 12 hex digits of its sha256 (enough to tell bodies apart) and its file. */
export function cutBody(text: string): { head: string; bytes: number; sha256: string; file: string } | undefined {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= SHOWN_BODY_BYTES) return undefined;
  let end = SHOWN_BODY_BYTES;
  // A UTF-8 continuation byte (10xxxxxx) belongs to the character before it: stop before that character.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1;
  const sha256 = createHash('sha256').update(bytes).digest('hex').slice(0, 12);
  return {
    head: bytes.subarray(0, end).toString('utf8'),
    bytes: bytes.length,
    sha256,
    file: `${BODIES_FOLDER}/${sha256}.txt`,
  };
}

export function shownBody(text: string): string {
  const cut = cutBody(text);
  if (cut === undefined) return text;
  return `${cut.head}\n[cut: the first ${SHOWN_BODY_BYTES / 1024} KiB of ${cut.bytes} bytes shown; sha256 ${cut.sha256}; the whole body is ${cut.file} in the reports folder]`;
}

/** Bodies too long to show, masked, each once under its hash; counted from the folder, as each test has its own. */
export class BodyFiles {
  constructor(
    private readonly reportsDir: string,
    private readonly secrets: Secrets,
    private readonly cap = KEPT_BODIES_CAP,
  ) {}

  /**
   * The text, masked, and the file that keeps it whole when it is too long to show. `pastCap` keeps a request
   * body even past the cap, for its curl command: the suite sends few (ROBUST-04's), a shop may answer many.
   */
  keep(text: string, pastCap = false): { text: string; path?: string } {
    const masked = this.secrets.mask(text);
    const cut = cutBody(masked);
    if (cut === undefined) return { text: masked };
    const path = join(this.reportsDir, cut.file);
    if (existsSync(path)) return { text: masked, path };
    const folder = join(this.reportsDir, BODIES_FOLDER);
    mkdirSync(folder, { recursive: true });
    const kept = readdirSync(folder).filter((name) => name !== NOT_KEPT_FILE);
    const keptBytes = kept.reduce((sum, name) => sum + statSync(join(folder, name)).size, 0);
    if (!pastCap && (kept.length >= this.cap.files || keptBytes + cut.bytes > this.cap.bytes)) {
      appendFileSync(join(folder, NOT_KEPT_FILE), `${cut.sha256}\n`);
      return { text: masked };
    }
    writeFileSync(path, masked);
    return { text: masked, path };
  }
}

/** Each body past the cap is shown cut, but its file is not there. */
export function notKeptNote(reportsDir: string): string | undefined {
  const list = join(reportsDir, BODIES_FOLDER, NOT_KEPT_FILE);
  if (!existsSync(list)) return undefined;
  const count = new Set(readFileSync(list, 'utf8').split('\n').filter(Boolean)).size;
  const { files, bytes } = KEPT_BODIES_CAP;
  return `${count} more ${count === 1 ? 'body' : 'bodies'} over ${SHOWN_BODY_BYTES / 1024} KiB not kept whole: the cap of ${files} files and ${bytes / 1024 / 1024} MiB in ${BODIES_FOLDER}/ was reached, so the file a cut body names may not be there`;
}
