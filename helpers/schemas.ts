// The profile's JSON schemas (PROFILE-01). The specification shows no shapes, so these are the
// default profile's assumptions; extra fields are always allowed because the field list is not shown.
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { TargetConfig } from './config.ts';

export type SchemaName = 'zone answer' | 'zone list' | 'error' | 'delete answer';

function zoneSchema(config: TargetConfig): object {
  return {
    type: 'object',
    required: [config.idField, 'name', 'coverage', 'status'],
    properties: {
      [config.idField]: { anyOf: [{ type: 'integer' }, { type: 'string', minLength: 1 }] },
      name: { type: 'string' },
      status: { enum: config.statuses },
    },
  };
}

/** The schema of a body that holds `inner` at this dotted path (ZONES_ZONE_KEY, ZONES_LIST_KEY). */
function underPath(path: string, inner: object): object {
  return path
    .split('.')
    .reduceRight<object>((schema, key) => ({ type: 'object', required: [key], properties: { [key]: schema } }), inner);
}

function schemas(config: TargetConfig): Record<SchemaName, object> {
  const zone = zoneSchema(config);
  const list = { type: 'array', items: zone };
  const wrapped = config.envelope === 'wrapped';
  return {
    'zone answer': wrapped ? underPath(config.zoneKey, zone) : zone,
    'zone list': wrapped ? underPath(config.listKey, list) : list,
    error: { type: 'object', required: ['errors'], properties: { errors: { type: ['string', 'object', 'array'] } } },
    // 204 has no body; a 200 answers {} in the profile.
    'delete answer': { type: 'object' },
  };
}

const compiled = new Map<string, Record<SchemaName, ValidateFunction>>();

export function validatorFor(config: TargetConfig, name: SchemaName): ValidateFunction {
  const key = JSON.stringify([config.idField, config.statuses, config.envelope, config.zoneKey, config.listKey]);
  let set = compiled.get(key);
  if (!set) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormatsModule.default(ajv);
    const entries = Object.entries(schemas(config)).map(([schemaName, schema]) => [schemaName, ajv.compile(schema)]);
    set = Object.fromEntries(entries) as Record<SchemaName, ValidateFunction>;
    compiled.set(key, set);
  }
  return set[name];
}
