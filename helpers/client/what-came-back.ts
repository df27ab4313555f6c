// What came back, said plainly, when an answer is not a JSON body the suite can read: an SSO gateway
// answers 200 with its sign-in page, and blaming the envelope settings would send the user astray.
import type { TargetConfig } from '../config.ts';
import type { BodyLimit, BodyLimitKind } from '../evidence/exchange.ts';
import { MAX_JSON_DEPTH } from '../json.ts';

/** A body that came whole but is not JSON, with what it is instead. */
export class NotJsonBody {
  constructor(readonly why: string) {}
}

/** The start of a body on one line: whitespace runs folded, control characters shown as "?". */
export function printable(text: string, max = 80): string {
  const line = text
    .slice(0, max * 4)
    .replace(/\s+/g, ' ')
    .replace(/[\p{Cc}\p{Cf}]/gu, '?')
    .trim();
  return line.length > max ? `${line.slice(0, max)}...` : line;
}

function looksLikeHtml(contentType: string | undefined, text: string): boolean {
  return /html/i.test(contentType ?? '') || /^\s*<(!doctype\s+html|html[\s>])/i.test(text.slice(0, 200));
}

/** What a person would see of a page, its title else its first words: what says which front it was ("Back soon"). */
export function pageGist(contentType: string | undefined, text: string): string {
  if (text.trim() === '') return 'no body';
  if (!looksLikeHtml(contentType, text)) return `beginning "${printable(text)}"`;
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(text.slice(0, 64 * 1024))?.[1];
  if (title !== undefined && printable(title) !== '') return `a page titled "${printable(title)}"`;
  const words = printable(text.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' '));
  return words === '' ? 'a page with no text' : `a page beginning "${words}"`;
}

/** `text` is the body as recorded (credential masked). */
export function describeNotJson(contentType: string | undefined, text: string, parseError: string): string {
  const type = contentType ?? 'no content type';
  if (looksLikeHtml(contentType, text)) {
    return `the body is HTML, not JSON (${type}), beginning "${printable(text)}": a sign-in page? Something in front of the shop may be answering in its place`;
  }
  return `the body is not JSON (${type}; ${parseError}), beginning "${printable(text)}"`;
}

export function describeBodyLimit(
  kind: BodyLimitKind,
  facts: { head: string; bytesRead: number; announcedBytes?: number },
  { maxBodyBytes, timeoutMs }: Pick<TargetConfig, 'maxBodyBytes' | 'timeoutMs'>,
): BodyLimit {
  const began = facts.head === '' ? 'nothing of it had come' : `it began "${printable(facts.head)}"`;
  const size =
    facts.announcedBytes !== undefined
      ? `its body is ${facts.announcedBytes} bytes by its Content-Length, past ZONES_MAX_BODY_BYTES=${maxBodyBytes}, so the suite did not read it`
      : `its body ran past ZONES_MAX_BODY_BYTES=${maxBodyBytes} bytes, so the suite stopped reading it`;
  const why: Record<BodyLimitKind, string> = {
    time: `its body was still coming when the time limit ZONES_TIMEOUT_MS=${timeoutMs} ran out (${facts.bytesRead} bytes by then; ${began})`,
    depth: `its body is JSON nested deeper than ${MAX_JSON_DEPTH} levels, which the suite does not read (${began})`,
    size: `${size} (${began}); if the shop's answers are really this large, raise ZONES_MAX_BODY_BYTES`,
  };
  return { kind, why: why[kind] };
}
