// Bodies as the reports show them: whole up to a fixed size, and past it cut, with the full size and a
// hash, the whole body kept once in a file of its own under the reports folder. A shop that accepts
// ROBUST-04's 1 MiB create would otherwise put that body whole into every report, every attachment and
// every curl command, and a job summary that is cut at 1 MB would lose what comes after it.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Secrets } from './secrets.ts';

/**
 * How much of a body a report shows: 8 KiB holds a list page of a few dozen zones whole, which is the
 * longest body a reader needs to see in full; longer ones are padding, floods or lists too long to read.
 */
export const SHOWN_BODY_BYTES = 8 * 1024;

/** Where, under the reports folder, the bodies too long to show are kept whole. */
export const BODIES_FOLDER = 'bodies';

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
 * Writes bodies too long to show into the reports folder, masked as every report is. A file is named by
 * its content's hash, so a body sent or answered many times (a list page) is written once.
 */
export class BodyFiles {
  constructor(
    private readonly reportsDir: string,
    private readonly secrets: Secrets,
  ) {}

  /** The text, masked; and where it is kept whole when it is too long to show (a path a shell can use). */
  keep(text: string): { text: string; path?: string } {
    const masked = this.secrets.mask(text);
    const cut = cutBody(masked);
    if (cut === undefined) return { text: masked };
    const path = join(this.reportsDir, cut.file);
    if (!existsSync(path)) {
      mkdirSync(join(this.reportsDir, BODIES_FOLDER), { recursive: true });
      writeFileSync(path, masked);
    }
    return { text: masked, path };
  }
}
