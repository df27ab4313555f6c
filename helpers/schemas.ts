// The profile's JSON schemas (PROFILE-01), read from the contract, the one place the shapes are written. The
// specification shows none: these are the default profile's, moved by the settings; extra fields always pass.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { TargetConfig } from './config.ts';
import { inProject } from './project-root.ts';

export type SchemaName = 'zone answer' | 'zone list' | 'error' | 'delete answer';

type Schema = Record<string, unknown>;
interface Envelope extends Schema {
  required: string[];
  properties: Record<string, Schema>;
}

/** The interface as an OpenAPI 3.1 document: read here, handed to users, checked by selftest/contract.test.ts. */
export const CONTRACT_URL = pathToFileURL(inProject('contract/zones-2026-07.openapi.json'));
/** Where the contract's zone keeps its id: the default of ZONES_ID_FIELD. */
const CONTRACT_ID_FIELD = 'id';
const COMPONENT_REF = '#/components/schemas/';

const components = (
  JSON.parse(readFileSync(CONTRACT_URL, 'utf8')) as { components: { schemas: Record<string, Schema> } }
).components.schemas;

function component<T extends Schema = Schema>(name: string): T {
  const schema = components[name];
  if (!schema) throw new Error(`the contract (${CONTRACT_URL.pathname}) has no component schema "${name}"`);
  return schema as T;
}

/** A copy with every reference to a component schema replaced by that schema, the zone by `zone`. */
function inlined(schema: unknown, zone: Schema): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inlined(item, zone));
  if (schema === null || typeof schema !== 'object') return schema;
  const ref = (schema as Schema).$ref;
  if (typeof ref === 'string' && ref.startsWith(COMPONENT_REF)) {
    const name = ref.slice(COMPONENT_REF.length);
    return name === 'Zone' ? zone : inlined(component(name), zone);
  }
  return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, inlined(value, zone)]));
}

/** The contract's zone, with its id where ZONES_ID_FIELD says and the statuses of ZONES_STATUSES. */
function zoneSchema(config: TargetConfig): Schema {
  const zone = component<Envelope>('Zone');
  const { [CONTRACT_ID_FIELD]: id, status, ...others } = zone.properties;
  return {
    ...zone,
    required: zone.required.map((field) => (field === CONTRACT_ID_FIELD ? config.idField : field)),
    properties: { ...others, [config.idField]: id, status: { ...status, enum: config.statuses } },
  };
}

/** The contract's envelope, its one key moved to a dotted path (ZONES_ZONE_KEY, ZONES_LIST_KEY); bare, what it holds. */
function enveloped(config: TargetConfig, name: string, path: string, zone: Schema): Schema {
  const envelope = component<Envelope>(name);
  const key = envelope.required[0]!;
  const held = inlined(envelope.properties[key], zone) as Schema;
  if (config.envelope === 'bare') return held;
  const [first, ...rest] = path.split('.');
  const nested = rest.reduceRight<Schema>(
    (schema, step) => ({ type: 'object', required: [step], properties: { [step]: schema } }),
    held,
  );
  const { [key]: _moved, ...others } = envelope.properties;
  return { ...envelope, required: [first!], properties: { ...others, [first!]: nested } };
}

function schemas(config: TargetConfig): Record<SchemaName, Schema> {
  const zone = zoneSchema(config);
  return {
    'zone answer': enveloped(config, 'ZoneAnswer', config.zoneKey, zone),
    'zone list': enveloped(config, 'ZoneList', config.listKey, zone),
    error: component('Error'),
    // 204 has no body; a 200 answers {} in the profile.
    'delete answer': component('DeleteAnswer'),
  };
}

// On globalThis, like the throttles: a worker that certifies one target after another (the gallery)
// loads this module again for each, and most targets' settings compile to the same validators.
const shared = globalThis as { __zonesCompiledSchemas?: Map<string, Record<SchemaName, ValidateFunction>> };
shared.__zonesCompiledSchemas ??= new Map();
const compiled = shared.__zonesCompiledSchemas;

// Ajv for JSON Schema 2020-12, OpenAPI 3.1's dialect, loaded when PROFILE-01 first checks a body rather
// than with the matchers: a run of other rules never needs it, and loading it cost a worker about 40 ms of CPU.
function newAjv2020(): import('ajv/dist/2020.js').Ajv2020 {
  const require = createRequire(import.meta.url);
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  return ajv;
}

export function validatorFor(config: TargetConfig, name: SchemaName): ValidateFunction {
  const key = JSON.stringify([config.idField, config.statuses, config.envelope, config.zoneKey, config.listKey]);
  let set = compiled.get(key);
  if (!set) {
    const ajv = newAjv2020();
    const entries = Object.entries(schemas(config)).map(([schemaName, schema]) => [schemaName, ajv.compile(schema)]);
    set = Object.fromEntries(entries) as Record<SchemaName, ValidateFunction>;
    compiled.set(key, set);
  }
  return set[name];
}
