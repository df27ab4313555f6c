// A shop's profile: the settings of its house style in one JSON file (ZONES_PROFILE=path.json), so a
// nightly job commits one file instead of a dozen variables. A key is a setting's name without
// ZONES_, in lower case, and holds its value as JSON (a list as an array, a JSON setting as itself).
// Every setting is either a profile key or refused with its reason; a self-test holds that table to
// the settings list, so a new setting cannot be forgotten here. The file is read before the settings
// are validated: its values then go through the same validator as the variables, which win over it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject } from 'ajv';
import { parseJson, stringifyJson } from './client/json.ts';
import type { Envelope, Paging } from './config.ts';
import { RETIRED_SETTINGS, settingDocs } from './settings.ts';

interface ProfileField {
  schema: Record<string, unknown>;
  /** The value as the variable of the same setting would spell it. */
  asSetting: (value: unknown) => string;
}

const text: ProfileField = { schema: { type: 'string', minLength: 1 }, asSetting: (value) => value as string };
const oneOf = (choices: readonly string[]): ProfileField => ({ schema: { enum: choices }, asSetting: text.asSetting });
const number = (type: 'integer' | 'number'): ProfileField => ({ schema: { type }, asSetting: String });
const json = (type: 'array' | 'object'): ProfileField => ({ schema: { type }, asSetting: stringifyJson });

/** A list setting is split at commas, so a name holding one would quietly become two. */
const names: ProfileField = {
  schema: {
    type: 'array',
    items: { type: 'string', pattern: '^[^,]+$', description: 'a name without a comma' },
  },
  asSetting: (value) => (value as string[]).join(','),
};

/** status -> filter value, spelled status=value,status=value by the variable. */
const pairs: ProfileField = {
  schema: { type: 'object', additionalProperties: { type: 'string' } },
  asSetting: (value) =>
    Object.entries(value as Record<string, string>)
      .map(([status, filterValue]) => `${status}=${filterValue}`)
      .join(','),
};

const ENVELOPES = ['wrapped', 'bare'] satisfies Envelope[];
const PAGING = ['link', 'page', 'cursor'] satisfies Paging[];

/** The settings a profile may hold: how a shop speaks the interface, and the limits it needs. */
export const PROFILE_FIELDS: Readonly<Record<string, ProfileField>> = {
  ZONES_AUTH_HEADER: text,
  // Empty is the default: the token is sent bare.
  ZONES_AUTH_SCHEME: { schema: { type: 'string' }, asSetting: text.asSetting },
  ZONES_API_VERSION: text,
  ZONES_STATUS_PARAM: text,
  ZONES_STATUS_FILTER_VALUES: pairs,
  ZONES_STATUSES: names,
  ZONES_ENVELOPE: oneOf(ENVELOPES),
  ZONES_ZONE_KEY: text,
  ZONES_LIST_KEY: text,
  ZONES_ID_FIELD: text,
  ZONES_PAGING: oneOf(PAGING),
  ZONES_PAGE_PARAM: text,
  ZONES_CURSOR_FIELD: text,
  ZONES_CURSOR_PARAM: text,
  ZONES_PAGE_SIZE: number('integer'),
  ZONES_PAGE_SIZE_PARAM: text,
  ZONES_COVERAGE_SAMPLES: json('array'),
  ZONES_EXTRA_FIELDS: json('object'),
  ZONES_TIMEOUT_MS: number('integer'),
  ZONES_MAX_BODY_BYTES: number('integer'),
  ZONES_MAX_RPS: number('number'),
  ZONES_CONSISTENCY_TIMEOUT_MS: number('integer'),
};

/** The settings a profile must not hold, and why: each is a secret, a command, or the run's own choice. */
/** Why the model-based suite's budget stays out of a profile. */
const MODEL_BUDGET = "how long the model-based suite searches is one run's budget, not the shop's style";

export const NOT_IN_A_PROFILE: Readonly<Record<string, string>> = {
  ZONES_MOCK_BASE_URL:
    "which mock drift compares with the shop is the run's choice, not the house style's: set ZONES_MOCK_BASE_URL as a variable",
  ZONES_MOCK_ACCESS_TOKEN:
    "the mock's token is a credential too, and a profile holds none: give it in ZONES_MOCK_ACCESS_TOKEN (a CI secret)",
  ZONES_ACCESS_TOKEN:
    'the token is a secret, and a profile is a file meant to be committed and shared: give it in ZONES_ACCESS_TOKEN (a CI secret)',
  ZONES_BOOKING_HOOK:
    'it is a shell command run on this machine, which may carry credentials of its own: set ZONES_BOOKING_HOOK as a variable (a CI secret if it holds one)',
  ZONES_BOOKING_CLEANUP_HOOK:
    'it is a shell command run on this machine, which may carry credentials of its own: set ZONES_BOOKING_CLEANUP_HOOK as a variable (a CI secret if it holds one)',
  ZONES_BASE_URL:
    'which shop to certify is the run\'s choice, not the house style\'s: set ZONES_BASE_URL as a variable (a CI variable), so that "no ZONES_BASE_URL" keeps meaning "the embedded reference"',
  ZONES_BOOKED_ZONE_ID: 'it names one zone of one shop, not a house style: set ZONES_BOOKED_ZONE_ID as a variable',
  ZONES_CA_FILE: "it is this machine's trust in the shop's certificate: set ZONES_CA_FILE as a variable",
  ZONES_TLS_INSECURE:
    'turning certificate checks off is a decision for one run, never one a shared file makes quietly: set ZONES_TLS_INSECURE=1 as a variable',
  ZONES_REPORTS_DIR:
    "where a run writes is the caller's choice, and a run that cannot start writes there before any profile is read: set ZONES_REPORTS_DIR as a variable",
  ZONES_PROFILE: 'a profile cannot name another profile',
  ZONES_MODEL_RUNS: `${MODEL_BUDGET}: set ZONES_MODEL_RUNS as a variable`,
  ZONES_MODEL_STEPS: `${MODEL_BUDGET}: set ZONES_MODEL_STEPS as a variable`,
  ZONES_MODEL_MAX_REQUESTS: `${MODEL_BUDGET}: set ZONES_MODEL_MAX_REQUESTS as a variable`,
  ZONES_MODEL_SHRINK_REQUESTS: `${MODEL_BUDGET}: set ZONES_MODEL_SHRINK_REQUESTS as a variable`,
  ZONES_OUTAGE_BUDGET_MS:
    "how long to wait for a shop that stopped answering is one run's patience (a nightly job's time slot), not the shop's style: set ZONES_OUTAGE_BUDGET_MS as a variable",
  ZONES_MODEL_SEED:
    "a seed replays one night's sequences, which is a choice for one run: set ZONES_MODEL_SEED as a variable, or --seed",
};

/** Keys a profile may carry besides settings: its JSON schema, for editors, and a note for people. */
const OWN_KEYS: Record<string, Record<string, unknown>> = {
  $schema: { type: 'string', description: 'The JSON schema of this file, for editors: ./shop-profile.schema.json' },
  description: { type: 'string', description: 'Which shop or house style this profile is for.' },
};

/** A word in a key that no setting of a profile has, and that secrets do. */
const SECRET_LIKE = /token|secret|password|passwd|credential/i;

export const profileKey = (settingName: string): string => settingName.replace(/^ZONES_/, '').toLowerCase();
const settingOfKey = (key: string): string => `ZONES_${key.replace(/^zones_/i, '').toUpperCase()}`;

/** The JSON schema of a profile, with each key's description taken from the settings list. */
export function profileSchema(): Record<string, unknown> {
  const help = new Map(settingDocs.map((doc) => [doc.name, doc]));
  const properties: Record<string, unknown> = { ...OWN_KEYS };
  for (const [name, field] of Object.entries(PROFILE_FIELDS)) {
    const doc = help.get(name);
    properties[profileKey(name)] = { ...field.schema, description: `${name}: ${doc?.help ?? ''}` };
  }
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

export interface ShopProfile {
  /** The path as it was given (relative paths are read from the current directory). */
  path: string;
  /** The profile's values as variables would spell them, by setting name. */
  settings: Record<string, string>;
  problems: string[];
  /** Retired settings the profile still holds (RETIRED_SETTINGS): said, then ignored. */
  retired: string[];
}

let compiled: ReturnType<Ajv['compile']> | undefined;

/**
 * Ajv, loaded when a profile is first read: every run reads the settings, few name a profile, and
 * loading Ajv costs a run that stops on bad settings about a fifth of its time.
 */
function newAjv(): Ajv {
  const { Ajv: AjvClass } = createRequire(import.meta.url)('ajv') as typeof import('ajv');
  return new AjvClass({ allErrors: true, verbose: true });
}

export function readShopProfile(path: string): ShopProfile {
  const profile: ShopProfile = { path, settings: {}, problems: [], retired: [] };
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
    if (RETIRED_SETTINGS[settingOfKey(key)] !== undefined && key === profileKey(settingOfKey(key))) {
      profile.retired.push(settingOfKey(key));
      delete entries[key];
      continue;
    }
    const refusal = refusalOf(key);
    if (refusal === undefined) continue;
    bad(refusal);
    delete entries[key];
  }
  compiled ??= newAjv().compile(profileSchema());
  if (!compiled(entries)) {
    for (const error of compiled.errors ?? []) bad(describeSchemaError(error));
    return profile;
  }
  for (const [key, value] of Object.entries(entries)) {
    const field = PROFILE_FIELDS[settingOfKey(key)];
    if (field) profile.settings[settingOfKey(key)] = field.asSetting(value);
  }
  return profile;
}

/** Why a key cannot be in a profile at all, before the schema looks at its value; undefined if it may be. */
function refusalOf(key: string): string | undefined {
  const name = settingOfKey(key);
  const why = NOT_IN_A_PROFILE[name];
  if (why !== undefined) return `${key} cannot be in a profile: ${why}`;
  if (PROFILE_FIELDS[name] !== undefined && key !== profileKey(name))
    return `${key} must be written ${profileKey(name)}: a key is the setting's name without ZONES_, in lower case`;
  if (PROFILE_FIELDS[name] === undefined && !Object.hasOwn(OWN_KEYS, key) && SECRET_LIKE.test(key))
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
