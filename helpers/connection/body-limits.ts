// An answer's body, read within the suite's limits: at most ZONES_MAX_BODY_BYTES, and only until the
// request's deadline. The suite certifies servers it does not control, so whatever one sends, the run
// must stay small and end on time: past a limit the stream is destroyed, which aborts the request, and
// the rest of the body is never fetched.
import type { Readable } from 'node:stream';

/** How much of a cut body is kept, to show what it was. */
export const EVIDENCE_BYTES = 4096;

export type BodyRead =
  | { whole: true; text: string }
  | {
      whole: false;
      /** size: past the byte limit (or announced past it); time: the deadline came first. */
      limit: 'size' | 'time';
      /** The first bytes that came, decoded. */
      head: string;
      bytesRead: number;
      /** The Content-Length, when it alone said the body is too large. */
      announcedBytes?: number;
    };

export interface BodyLimits {
  maxBytes: number;
  /** The request's own deadline: when it fires, the stream fails and the cut is the deadline's. */
  deadline: AbortSignal;
  /** The answer's Content-Length, if it gave one. */
  announcedBytes?: number;
}

export async function readBodyWithin(body: Readable, limits: BodyLimits): Promise<BodyRead> {
  const chunks: Buffer[] = [];
  let bytesRead = 0;
  // A body announced past the limit is refused at once: only a glimpse of it is read, for the evidence.
  const announcedTooLarge = limits.announcedBytes !== undefined && limits.announcedBytes > limits.maxBytes;
  const stopAfter = announcedTooLarge ? Math.min(EVIDENCE_BYTES, limits.maxBytes) : limits.maxBytes;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      bytesRead += chunk.length;
      if (bytesRead > stopAfter) {
        body.destroy();
        return {
          whole: false,
          limit: 'size',
          head: headOf(chunks),
          bytesRead,
          announcedBytes: announcedTooLarge ? limits.announcedBytes : undefined,
        };
      }
    }
  } catch (error) {
    if (limits.deadline.aborted) return { whole: false, limit: 'time', head: headOf(chunks), bytesRead };
    throw error;
  }
  return { whole: true, text: decode(Buffer.concat(chunks, bytesRead)) };
}

function headOf(chunks: readonly Buffer[]): string {
  const taken: Buffer[] = [];
  let length = 0;
  for (const chunk of chunks) {
    if (length >= EVIDENCE_BYTES) break;
    taken.push(chunk);
    length += chunk.length;
  }
  return decode(Buffer.concat(taken).subarray(0, EVIDENCE_BYTES));
}

/** UTF-8 as undici's text() decodes it: a byte-order mark dropped, bad bytes replaced, never thrown. */
function decode(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes);
}
