// How an exchange reads in a failure message, a report or an attachment: the request and the
// answer, credential already masked by the client, long bodies cut (bounded-body.ts).
import { type BodyFiles, shownBody } from './bounded-body.ts';
import type { Answer, Exchange } from './exchange.ts';
import { type ExchangeDetail, exchangeDetail } from './exchange-detail.ts';
import { curlCommand, type ReplaySettings } from './replay.ts';

export function formatExchange(exchange: Exchange): string {
  const lines = [`> ${exchange.method} ${exchange.url}  [credential: ${exchange.auth}]`];
  if (exchange.requestBody !== undefined) lines.push(`  ${shownBody(exchange.requestBody)}`);
  if (exchange.status === undefined) {
    lines.push(`< no answer after ${exchange.durationMs} ms: ${exchange.error}`);
  } else {
    const type = exchange.responseHeaders['content-type'];
    lines.push(`< ${exchange.status}${type ? ` ${type}` : ''} (${exchange.durationMs} ms)`);
    // A redirect is never followed: where it pointed is part of the evidence.
    const location = exchange.responseHeaders.location;
    if (location !== undefined) lines.push(`  Location: ${location}`);
    // What the body was, said before it is shown: cut off at a limit, or not JSON at all.
    if (exchange.bodyLimit) lines.push(`  [not read whole: ${exchange.bodyLimit.why}; its first part follows]`);
    if (exchange.notJson) lines.push(`  [${exchange.notJson}]`);
    if (exchange.responseBody !== '') lines.push(`  ${shownBody(exchange.responseBody)}`);
  }
  return lines.join('\n');
}

export function formatAnswers(...answers: Answer[]): string {
  return answers.map((answer) => formatExchange(answer.exchange)).join('\n');
}

/** Enough to see what a test did. */
export function summarizeExchange(exchange: Exchange): string {
  const location = exchange.responseHeaders.location;
  const limit = exchange.bodyLimit
    ? ` (body not read whole: ${exchange.bodyLimit.kind} limit)`
    : exchange.notJson
      ? ' (body not JSON)'
      : '';
  const outcome =
    exchange.status === undefined
      ? `no answer (${exchange.error})`
      : `${exchange.status}${location === undefined ? '' : ` (Location: ${location})`}${limit}`;
  return `${exchange.method} ${exchange.url} [${exchange.auth}] -> ${outcome}`;
}

/**
 * An exchange as every report shows it, made in the test's worker where it is known whole; plain text,
 * so that it crosses to the launcher in task.meta. `detail` only while drift records every exchange.
 */
export interface ExchangeRecord {
  line: string;
  shown: string;
  curl: string;
  detail?: ExchangeDetail;
}

/**
 * A body too long to show is kept in a file of its own: the record shows its first part, and the curl command sends the file.
 * When drift records, `ownZone` tells the run's own zones in a list.
 */
export function recordExchange(
  exchange: Exchange,
  settings: ReplaySettings,
  bodies: BodyFiles,
  run: { targetVariables?: string; ownZone?: (item: unknown) => boolean },
): ExchangeRecord {
  const request = exchange.requestBody === undefined ? undefined : bodies.keep(exchange.requestBody, true);
  const kept: Exchange = {
    ...exchange,
    requestBody: request?.text,
    responseBody: bodies.keep(exchange.responseBody).text,
  };
  return {
    line: summarizeExchange(kept),
    shown: formatExchange(kept),
    curl: curlCommand(kept, settings, request?.path, run.targetVariables),
    ...(run.ownZone ? { detail: exchangeDetail(kept, run.ownZone) } : {}),
  };
}
