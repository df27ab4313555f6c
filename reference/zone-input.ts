// Turns a parsed request body into zone fields, or into the 422 errors a client can act on.
import { exampleAtPath, valueAtPath } from './dotted-path.ts';
import { type HouseStyle, zoneKeyOf } from './styles.ts';

const MAX_NAME_LENGTH = 255;

export type FieldErrors = Record<string, string[]>;
export type Checked<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

export interface CreateFields {
  name: string;
  coverage: unknown;
  /** Kept only so a mutant can misuse it: the reference ignores a status sent on create. */
  requestedStatus: unknown;
}

export interface ZoneChanges {
  name?: string;
  coverage?: unknown;
  status?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function unwrap(style: HouseStyle, body: unknown): Checked<Record<string, unknown>> {
  if (style.envelope === 'bare') {
    return isObject(body)
      ? { ok: true, value: body }
      : { ok: false, errors: { base: ['the body must be a JSON object'] } };
  }
  const key = zoneKeyOf(style);
  const fields = valueAtPath(body, key);
  if (fields === undefined) return { ok: false, errors: { [key]: [`is required: send ${exampleAtPath(key)}`] } };
  return isObject(fields) ? { ok: true, value: fields } : { ok: false, errors: { [key]: ['must be a JSON object'] } };
}

function nameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string') return 'must be a string';
  if (name.trim() === '') return "can't be blank";
  if ([...name].length > MAX_NAME_LENGTH) return `is too long (maximum is ${MAX_NAME_LENGTH} characters)`;
  return undefined;
}

/** Coverage is opaque to the reference, unless the style validates it against a schema of its own. */
function coverageProblem(style: HouseStyle, coverage: unknown): string | undefined {
  if (style.coverageSchema !== 'regions') return undefined;
  const regions = isObject(coverage) && Object.keys(coverage).length === 1 ? coverage.regions : undefined;
  const valid =
    Array.isArray(regions) &&
    regions.length > 0 &&
    regions.every((region) => typeof region === 'string' && region !== '');
  return valid ? undefined : 'must match the schema {"regions": [string, ...]} with no other property';
}

export function checkCreate(style: HouseStyle, body: unknown): Checked<CreateFields> {
  const fields = unwrap(style, body);
  if (!fields.ok) return fields;
  const { value } = fields;
  const errors: FieldErrors = {};
  const problem = Object.hasOwn(value, 'name') ? nameProblem(value.name) : "can't be blank";
  if (problem) errors.name = [problem];
  if (!Object.hasOwn(value, 'coverage')) errors.coverage = ['is required'];
  else if (coverageProblem(style, value.coverage)) errors.coverage = [coverageProblem(style, value.coverage)!];
  for (const field of Object.keys(style.requiredOnCreate ?? {}))
    if (!Object.hasOwn(value, field)) errors[field] = ['is required'];
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: { name: value.name as string, coverage: value.coverage, requestedStatus: value.status } };
}

export function checkUpdate(style: HouseStyle, body: unknown): Checked<ZoneChanges> {
  const fields = unwrap(style, body);
  if (!fields.ok) return fields;
  const { value } = fields;
  const errors: FieldErrors = {};
  const changes: ZoneChanges = {};
  if (Object.hasOwn(value, 'name')) {
    const problem = nameProblem(value.name);
    if (problem) errors.name = [problem];
    else changes.name = value.name as string;
  }
  if (Object.hasOwn(value, 'coverage')) {
    const problem = coverageProblem(style, value.coverage);
    if (problem) errors.coverage = [problem];
    else changes.coverage = value.coverage;
  }
  if (Object.hasOwn(value, 'status')) {
    if (typeof value.status === 'string' && style.statuses.includes(value.status)) changes.status = value.status;
    else errors.status = [`must be one of: ${style.statuses.join(', ')}`];
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, value: changes };
}
