import type { ServerResponse } from 'node:http';
import { toJsonText } from './json.ts';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({ status, body, headers });

export const notFound = (): Reply => reply(404, { errors: 'Not Found' });

export function sendReply(res: ServerResponse, { status, body, headers }: Reply): void {
  // undefined: an answer with no body at all, as some shops give to a create.
  const text = body === undefined ? '' : toJsonText(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}
