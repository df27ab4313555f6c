import type { IncomingMessage } from 'node:http';
import { JsonBodyError, parseExactJson } from './json.ts';
import { type Reply, reply } from './respond.ts';

export const MAX_BODY_BYTES = 64 * 1024;

export type BodyResult = { kind: 'text'; text: string } | { kind: 'too-large' } | { kind: 'not-utf8' };

/**
 * How much of a body past the limit is still read, and dropped, before the 413 goes out. A server that
 * answers and closes while the client is still sending leaves many clients a broken pipe instead of
 * the answer; past this much, it does close.
 */
const DRAINED_AT_MOST = 4 * 1024 * 1024;

/** The rest of a body, read and dropped up to DRAINED_AT_MOST: settles when it ends, fails or passes that. */
function drain(req: IncomingMessage, alreadyRead: number): Promise<void> {
  return new Promise((resolve) => {
    let size = alreadyRead;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > DRAINED_AT_MOST) resolve();
    });
    req.on('end', resolve);
    req.on('error', () => resolve());
    req.resume();
  });
}

/** Reads the request body, keeping none of it once it passes the limit so a huge body is never held. */
function readBodyText(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    if (declared > DRAINED_AT_MOST) return Promise.resolve({ kind: 'too-large' });
    return drain(req, 0).then(() => ({ kind: 'too-large' }));
  }

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        chunks.length = 0;
        void drain(req, size).then(() => resolve({ kind: 'too-large' }));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('error', reject);
    req.on('end', () => {
      if (size > limit) return;
      try {
        resolve({ kind: 'text', text: new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)) });
      } catch {
        resolve({ kind: 'not-utf8' });
      }
    });
  });
}

export type JsonBody = { ok: true; value: unknown } | { ok: false; reply: Reply };

export async function readJsonBody(req: IncomingMessage): Promise<JsonBody> {
  const body = await readBodyText(req);
  if (body.kind === 'too-large') {
    // The rest of the body may not have been read (past DRAINED_AT_MOST), so this connection carries no other request.
    return {
      ok: false,
      reply: reply(413, { errors: `the body is larger than ${MAX_BODY_BYTES} bytes` }, { connection: 'close' }),
    };
  }
  if (body.kind === 'not-utf8') return { ok: false, reply: reply(400, { errors: 'the body is not UTF-8 text' }) };
  try {
    return { ok: true, value: parseExactJson(body.text) };
  } catch (error) {
    if (error instanceof JsonBodyError) return { ok: false, reply: reply(400, { errors: error.message }) };
    throw error;
  }
}
