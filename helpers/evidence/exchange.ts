// One request and what came back, as the client records it: the unit of every piece of evidence. Plain
// data, so that a test worker hands its exchanges to the launcher in task.meta.

export type AuthMode = 'valid' | 'none' | 'wrong';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Exchange {
  method: Method;
  url: string;
  auth: AuthMode;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  durationMs: number;
  /** No answer came back: why, and the code (ECONNREFUSED, a certificate's...) that says what would fix it. */
  error?: string;
  errorCode?: string;
  bodyLimit?: BodyLimit;
  /** What the body is, when it came whole but is not JSON. */
  notJson?: string;
}

/** A 2xx: the request was carried out (a list page read, a zone made, changed or removed). */
export function isSuccessStatus(status: number | undefined): boolean {
  return status !== undefined && status >= 200 && status <= 299;
}

export interface Answer {
  exchange: Exchange;
  status: number;
  /** The parsed body; undefined when it was empty; a NotJsonBody, saying what it is, when it is not JSON. */
  body: unknown;
}

export type BodyLimitKind = 'size' | 'time' | 'depth';

export interface BodyLimit {
  kind: BodyLimitKind;
  /** Reads after "the answer came, but": names the limit and its setting, and how the body began. */
  why: string;
}
