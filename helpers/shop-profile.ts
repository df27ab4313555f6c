// A shop's house style in one JSON file (ZONES_PROFILE=path.json), so a nightly job commits one file, not a dozen
// variables. The settings list says which keys it holds, in which JSON shape; the values go through the validator.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject } from 'ajv';
import { parseJson, stringifyJson } from './json.ts';
import { RETIRED_SETTINGS, SETTINGS, type Setting } from './settings.ts';

/** The JSON shape of the setting's kind, and `asSetting`, the value as its variable would spell it (else String). */
function profileField({ type = { kind: 'text' }, default: byDefault }: Setting) {
  switch (type.kind) {
    case 'text':
    case 'command':
      // Where empty is the default (a bare token, for one), a profile may say it too.
      return { schema: byDefault === '' ? { type: 'string' } : { type: 'string', minLength: 1 } };
    case 'choice':
      return { schema: { enum: type.choices } };
    case 'number':
      return { schema: { type: type.whole ? 'integer' : 'number' } };
    case 'names':
      // A list setting is split at commas, so a name holding one would quietly become two.
      return {
        schema: { type: 'array', items: { type: 'string', pattern: '^[^,]+$', description: 'a name without a comma' } },
        asSetting: (value: unknown) => (value as string[]).join(','),
      };
    case 'pairs':
      return {
        schema: { type: 'object', additionalProperties: { type: 'string' } },
        asSetting: (value: unknown) =>
          Object.entries(value as Record<string, string>)
            .map((pair) => pair.join('='))
            .join(','),
      };
    case 'json':
      return { schema: { type: type.shape }, asSetting: stringifyJson };
  }
}

/** The settings a profile may hold: how a shop speaks the interface, and the limits it needs. */
const IN_A_PROFILE = SETTINGS.filter((setting) => 'inAProfile' in setting);
const PROFILE_FIELDS = new Map(IN_A_PROFILE.map((setting) => [setting.name as string, profileField(setting)]));

/** What a mock of the shop must choose and the suite only reads (npm run mock; docs/mock.md says each key). */
const MOCK_SECTION = {
  type: 'object',
  description:
    'For npm run mock: what a mock of this shop must choose where the specification shows nothing. The suite accepts this section and does not act on it.',
  additionalProperties: false,
  properties: {
    created: { enum: [200, 201], description: 'The status of a create: 201 by default.' },
    deleted: { enum: [200, 204], description: 'The status of a delete: 200 {} by default, 204 with no body.' },
    unauthenticated: { enum: [401, 403], description: 'The status of a request without a valid credential.' },
    booked: {
      type: 'integer',
      minimum: 400,
      maximum: 499,
      description: 'The status refusing to delete a booked zone.',
    },
    invalid: { enum: [400, 422], description: 'The status refusing a body with a missing or wrong field.' },
    error_key: {
      type: 'string',
      minLength: 1,
      description: 'The top-level key of every error body: errors by default.',
    },
    content_type: { type: 'string', minLength: 1, description: 'The Content-Type of every JSON answer.' },
    extra_fields: {
      type: 'object',
      description:
        'Fields every zone carries besides the documented ones; in a string, {id} is the zone id, {now} the time.',
    },
    unknown_status_filter: { enum: ['empty', 'refused'], description: 'A filter by an unknown status: [] or 400.' },
    id_style: { enum: ['number', 'string', 'uuid', 'big-number'], description: 'Ids: big-number is past 2^53.' },
    rate_limit: {
      type: 'object',
      description: 'A bucket of burst requests refilled at per_second; past it, 429 with Retry-After.',
      required: ['burst', 'per_second'],
      additionalProperties: false,
      properties: { burst: { type: 'integer', minimum: 1 }, per_second: { type: 'number', exclusiveMinimum: 0 } },
    },
    latency_ms: { type: 'integer', minimum: 0, maximum: 10_000, description: 'A wait before every answer.' },
  },
};

/** Keys a profile may carry besides settings: its JSON schema, for editors, a note for people, and a mock's choices. */
const OWN_KEYS: Record<string, Record<string, unknown>> = {
  $schema: { type: 'string', description: 'The JSON schema of this file, for editors: ./shop-profile.schema.json' },
  description: { type: 'string', description: 'Which shop or house style this profile is for.' },
  mock: MOCK_SECTION,
};

/** A word in a key that no setting of a profile has, and that secrets do. */
const SECRET_LIKE = /token|secret|password|passwd|credential/i;

export const profileKey = (settingName: string): string => settingName.replace(/^ZONES_/, '').toLowerCase();
const settingOfKey = (key: string): string => `ZONES_${key.replace(/^zones_/i, '').toUpperCase()}`;

/** The JSON schema of a profile, with each key's description taken from the settings list. */
export function profileSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = { ...OWN_KEYS };
  for (const { name, help } of IN_A_PROFILE)
    properties[profileKey(name)] = { ...PROFILE_FIELDS.get(name)!.schema, description: `${name}: ${help}` };
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'zones-conformance shop profile',
    description:
      'The non-secret settings of a house style, named as the ZONES_* settings without ZONES_, in lower case. Variables win over the file. Generated from helpers/shop-profile.ts by npm run env-example.',
    type: 'object',
    properties,
    additionalProperties: false,
  };
}

let compiled: ReturnType<Ajv['compile']> | undefined;

// Loaded when a profile is first read: few runs name one, and loading Ajv costs a run that stops on bad
// settings about a fifth of its time.
function newAjv(): Ajv {
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
  return new AjvClass({ allErrors: true, verbose: true });
}

export function readShopProfile(path: string) {
  // The values as variables would spell them, by setting name; retired settings it still holds are said, then ignored.
  const profile = {
    path,
    settings: {} as Record<string, string>,
    problems: [] as string[],
    retired: [] as string[],
    /** The "mock" section, checked against its schema: npm run mock reads it, a run does not. */
    mock: {} as Record<string, unknown>,
  };
  const bad = (why: string) => profile.problems.push(`ZONES_PROFILE ${path}: ${why}`);
  let content: unknown;
  try {
    content = parseJson(readFileSync(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') bad('no such file (a relative path is read from the current directory)');
    else if (code !== undefined) bad(`cannot be read (${code})`);
    else bad(`is not valid JSON: ${(error as Error).message}`);
    return profile;
  }
  if (content === null || typeof content !== 'object' || Array.isArray(content)) {
    bad('must be a JSON object of settings, e.g. {"auth_header": "Authorization"}');
    return profile;
  }
  const entries = { ...(content as Record<string, unknown>) };
  for (const key of Object.keys(entries)) {
    const name = settingOfKey(key);
    const refusal = refusalOf(key);
    if (RETIRED_SETTINGS[name] !== undefined && key === profileKey(name)) profile.retired.push(name);
    else if (refusal !== undefined) bad(refusal);
    else continue;
    delete entries[key];
  }
  compiled ??= newAjv().compile(profileSchema());
  if (!compiled(entries)) {
    for (const error of compiled.errors ?? []) bad(describeSchemaError(error));
    return profile;
  }
  profile.mock = (entries.mock as Record<string, unknown> | undefined) ?? {};
  for (const [key, value] of Object.entries(entries)) {
    const field = PROFILE_FIELDS.get(settingOfKey(key));
    if (field) profile.settings[settingOfKey(key)] = (field.asSetting ?? String)(value);
  }
  return profile;
}

/** Why a key cannot be in a profile at all, before the schema looks at its value; undefined if it may be. */
function refusalOf(key: string): string | undefined {
  const setting = SETTINGS.find((candidate) => candidate.name === settingOfKey(key));
  if (setting && 'notInAProfile' in setting) return `${key} cannot be in a profile: ${setting.notInAProfile}`;
  if (setting && key !== profileKey(setting.name))
    return `${key} must be written ${profileKey(setting.name)}: a key is the setting's name without ZONES_, in lower case`;
  if (!setting && !Object.hasOwn(OWN_KEYS, key) && SECRET_LIKE.test(key))
    return `${key} looks like a secret, and a profile holds none: give the token in ZONES_ACCESS_TOKEN (a CI secret)`;
  return undefined;
}

const KIND: Record<string, string> = {
  string: 'a string',
  array: 'an array',
  object: 'an object',
  integer: 'a whole number',
  number: 'a number',
};

/** Ajv's finding as a sentence that names the key: "statuses[1] must be a string". */
function describeSchemaError(error: ErrorObject): string {
  const where = error.instancePath
    .split('/')
    .slice(1)
    .map((part, index) =>
      /^\d+$/.test(part) ? `[${part}]` : `${index === 0 ? '' : '.'}${part.replace(/~1/g, '/').replace(/~0/g, '~')}`,
    )
    .join('');
  switch (error.keyword) {
    case 'additionalProperties':
      if (where !== '')
        return `${where}.${error.params.additionalProperty} is not a key of "${where}" (see docs/mock.md)`;
      return `${error.params.additionalProperty} is not a profile key: the keys are the settings' names without ZONES_, in lower case (see profiles/shop-profile.schema.json)`;
    case 'type':
      return `${where} must be ${KIND[error.params.type as string] ?? error.params.type}`;
    case 'enum':
      return `${where} must be one of ${(error.params.allowedValues as string[]).join(', ')}`;
    case 'minLength':
      return `${where} must not be empty`;
    case 'pattern':
      return `${where} must be ${(error.parentSchema as { description?: string }).description ?? `like ${error.params.pattern}`}`;
    default:
      return `${where || 'the profile'} ${error.message ?? 'is not valid'}`;
  }
}
