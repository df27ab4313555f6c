import type { IncomingMessage } from 'node:http';
import { JsonBodyError, parseExactJson } from './json.ts';
import { type Reply, reply } from './respond.ts';

export const MAX_BODY_BYTES = 64 * 1024;

export type BodyResult = { kind: 'text'; text: string } | { kind: 'too-large' } | { kind: 'not-utf8' };

/** Reads the request body, giving up as soon as it passes the limit so a huge body is never held. */
function readBodyText(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<BodyResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.resolve({ kind: 'too-large' });

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        chunks.length = 0;
        resolve({ kind: 'too-large' });
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
    // The rest of the body is never read, so this connection cannot carry another request.
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
