// Bodies as the reports show them: whole up to a fixed size, and past it cut, with the full size and a
// hash, the whole body kept once in a file of its own under the reports folder. A shop that accepts
// ROBUST-04's 1 MiB create would otherwise put that body whole into every report, every attachment and
// every curl command, and a job summary that is cut at 1 MB would lose what comes after it.
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Secrets } from './secrets.ts';

/**
 * How much of a body a report shows: 8 KiB holds a list page of a few dozen zones whole, which is the
 * longest body a reader needs to see in full; longer ones are padding, floods or lists too long to read.
 */
export const SHOWN_BODY_BYTES = 8 * 1024;

/** Where, under the reports folder, the bodies too long to show are kept whole. */
export const BODIES_FOLDER = 'bodies';

/**
 * How many bodies a run keeps whole, and how many bytes of them: the first ones. A shop that answers
 * long bodies to every request would otherwise fill the CI's artifact store, night after night, with
 * hundreds of megabytes of the same padding; the first 200 show what it sends as well as all of them.
 */
export const KEPT_BODIES_CAP = { files: 200, bytes: 50 * 1024 * 1024 };

/** In the bodies folder: the hash of each body past the cap, a line each, for the report's note. */
const NOT_KEPT_FILE = 'not-kept.list';

/** A body past SHOWN_BODY_BYTES: the part shown, and what finds the rest. */
export interface CutBody {
  head: string;
  bytes: number;
  /** The first 12 hex digits of the body's sha256: enough to tell bodies apart, short enough to read. */
  sha256: string;
  /** The file that holds it whole, relative to the reports folder. */
  file: string;
}

/** The body cut at SHOWN_BODY_BYTES, or undefined when it fits. Never splits a character in two. */
export function cutBody(text: string): CutBody | undefined {
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

/** The body as a report shows it: whole, or its first part and a line saying where the rest is. */
export function shownBody(text: string): string {
  const cut = cutBody(text);
  if (cut === undefined) return text;
  return `${cut.head}\n[cut: the first ${SHOWN_BODY_BYTES / 1024} KiB of ${cut.bytes} bytes shown; sha256 ${cut.sha256}; the whole body is ${cut.file} in the reports folder]`;
}

/**
 * Writes bodies too long to show into the reports folder, masked as every report is, up to `cap`. A file
 * is named by its content's hash, so a body sent or answered many times (a list page) is written once.
 * What is kept is counted from the folder, since each test has its own BodyFiles.
 */
export class BodyFiles {
  constructor(
    private readonly reportsDir: string,
    readonly secrets: Secrets,
    private readonly cap = KEPT_BODIES_CAP,
  ) {}

  /**
   * The text, masked; and where it is kept whole when it is too long to show (a path a shell can use).
   * `pastCap` keeps a request body even past the cap: its curl command sends the file rather than a
   * megabyte on one line, and the suite sends few such bodies (ROBUST-04's), where a shop's answers may be many.
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

/** The report's note on the bodies past the cap, if any: each is shown cut, but its file is not there. */
export function notKeptNote(reportsDir: string): string | undefined {
  const list = join(reportsDir, BODIES_FOLDER, NOT_KEPT_FILE);
  if (!existsSync(list)) return undefined;
  const count = new Set(readFileSync(list, 'utf8').split('\n').filter(Boolean)).size;
  const { files, bytes } = KEPT_BODIES_CAP;
  return `${count} more ${count === 1 ? 'body' : 'bodies'} over ${SHOWN_BODY_BYTES / 1024} KiB not kept whole: the cap of ${files} files and ${bytes / 1024 / 1024} MiB in ${BODIES_FOLDER}/ was reached, so the file a cut body names may not be there`;
}
