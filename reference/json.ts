// Coverage is opaque JSON that must come back exactly as sent, so every number keeps its source text
// (LosslessNumber) from request to response; nothing passes through a JS double.
import { parse, stringify } from 'lossless-json';

/** Past this depth the recursive parser and printer could exhaust the stack. */
const MAX_NESTING = 512;

export class JsonBodyError extends Error {}

function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '[' || char === '{') deepest = Math.max(deepest, ++depth);
    else if (char === ']' || char === '}') depth--;
  }
  return deepest;
}

export function parseExactJson(text: string): unknown {
  if (text.trim() === '') throw new JsonBodyError('the body is empty; a JSON object is expected');
  if (nestingDepth(text) > MAX_NESTING)
    throw new JsonBodyError(`the JSON is nested more than ${MAX_NESTING} levels deep`);
  try {
    return parse(text);
  } catch (error) {
    throw new JsonBodyError(`the body is not valid JSON: ${(error as Error).message}`);
  }
}

export function toJsonText(value: unknown): string {
  const text = stringify(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}
