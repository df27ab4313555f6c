// An answer's body, read within ZONES_MAX_BODY_BYTES and the request's deadline: whatever a server the
// suite does not control sends, the run stays small and ends on time. Past a limit the stream is
// destroyed, which aborts the request.
import type { Readable } from 'node:stream';

/** How much of a cut body is kept, to show what it was. */
export const EVIDENCE_BYTES = 4096;

/** UTF-8 as undici's text() decodes it: a byte-order mark dropped, bad bytes replaced, never thrown. */
const UTF8 = new TextDecoder();

/** When the request's `deadline` fires, the stream fails; `announcedBytes` comes back only when it alone said too large. */
export async function readBodyWithin(
  body: Readable,
  limits: { maxBytes: number; deadline: AbortSignal; announcedBytes?: number },
): Promise<
  | { whole: true; text: string }
  | { whole: false; limit: 'size' | 'time'; head: string; bytesRead: number; announcedBytes?: number }
> {
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
          head: headOf(chunks, bytesRead),
          bytesRead,
          announcedBytes: announcedTooLarge ? limits.announcedBytes : undefined,
        };
      }
    }
  } catch (error) {
    if (limits.deadline.aborted) return { whole: false, limit: 'time', head: headOf(chunks, bytesRead), bytesRead };
    throw error;
  }
  return { whole: true, text: UTF8.decode(Buffer.concat(chunks, bytesRead)) };
}

/** Buffer.concat copies no further than the length it is given. */
function headOf(chunks: readonly Buffer[], bytesRead: number): string {
  return UTF8.decode(Buffer.concat(chunks, Math.min(bytesRead, EVIDENCE_BYTES)));
}
