import type { ServerResponse } from 'node:http';
import { toJsonText } from './json.ts';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const reply = (status: number, body: unknown, headers?: Record<string, string>): Reply => ({
  status,
  body,
  headers,
});

export const notFound = (): Reply => reply(404, { errors: 'Not Found' });

const JSON_TYPE = 'application/json; charset=utf-8';

export function sendReply(res: ServerResponse, { status, body, headers }: Reply, contentType = JSON_TYPE): void {
  // undefined: an answer with no body at all, as some shops give to a create.
  const text = body === undefined ? '' : toJsonText(body);
  // A 204 carries no content, so no content headers either (RFC 9110 §15.3.5).
  const contentHeaders =
    status === 204 ? {} : { 'content-type': contentType, 'content-length': Buffer.byteLength(text) };
  res.writeHead(status, { ...headers, ...contentHeaders });
  res.end(status === 204 ? undefined : text);
}
