// The contract, contract/zones-2026-07.openapi.json: a valid OpenAPI 3.1 document whose descriptions
// cite the specification where it documents and say "Profile:" where the profile assumes, whose
// component schemas are the ones PROFILE-01 compiles, and whose responses the reference's answers in
// the default style match.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readTargetConfig } from '../helpers/config.ts';
import { CONTRACT_URL, validatorFor } from '../helpers/schemas.ts';
import { type RunningReference, startReference } from '../reference/server.ts';
import { readSections, SPEC_PATH, type SpecSection, sourceProblems } from './catalogue/spec-sections.ts';
import { projectRoot } from './run-node.ts';

/** The document, walked as the JSON it is. */
type Json = any;

const contract: Json = JSON.parse(readFileSync(CONTRACT_URL, 'utf8'));
const COLLECTION = '/admin/api/2026-07/zones.json';
const ONE_ZONE = '/admin/api/2026-07/zones/{zone_id}.json';
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Every description in the document, with where it stands. */
function descriptions(node: Json, at = ''): { at: string; text: string }[] {
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === 'description' && typeof value === 'string'
      ? [{ at: at || '/', text: value }]
      : descriptions(value, `${at}/${key}`),
  );
}

/** Descriptions that say neither what the specification documents nor what the profile assumes. */
function unmarked(document: Json): string[] {
  return descriptions(document)
    .filter(({ text }) => !/Specification \(|Profile:/.test(text))
    .map(({ at }) => at);
}

/** Every "Specification (<source>)" whose source does not hold against the specification's text. */
function citationProblems(document: Json, sections: ReadonlyMap<string, SpecSection>): string[] {
  return descriptions(document).flatMap(({ at, text }) =>
    [...text.matchAll(/Specification \(([^)]+)\)/g)].flatMap((cited) =>
      sourceProblems(cited[1]!, sections).map((problem) => `${at}: ${problem}`),
    ),
  );
}

describe('the document', () => {
  test('is valid OpenAPI 3.1 by @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(contract));
    expect(result.errors ?? []).toEqual([]);
    expect([result.valid, validator.version]).toEqual([true, '3.1']);
  });

  test('and the validator refuses a copy that breaks OpenAPI', async () => {
    const broken = structuredClone(contract);
    delete broken.paths[COLLECTION].get.responses['200'].description;
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  test('describes the four operations of the specification, at their documented paths', () => {
    const operations = Object.entries(contract.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => method in (item as object)).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.sort()).toEqual(
      [`GET ${COLLECTION}`, `POST ${COLLECTION}`, `PUT ${ONE_ZONE}`, `DELETE ${ONE_ZONE}`].sort(),
    );
  });

  test('every description says what the specification documents or what the profile assumes', () => {
    expect(descriptions(contract).length).toBeGreaterThan(20);
    expect(unmarked(contract)).toEqual([]);
    expect(unmarked({ info: { description: 'a zone' }, paths: {} })).toEqual(['/info']);
  });

  test('every section a description cites is in the specification, with the item or words it cites', () => {
    const sections = readSections(readFileSync(join(projectRoot, SPEC_PATH), 'utf8'));
    expect(citationProblems(contract, sections)).toEqual([]);
    expect(citationProblems({ description: 'Specification (Endpoints rule 9): more' }, sections)).toEqual([
      expect.stringContaining('Endpoints has no numbered item 9'),
    ]);
  });
});

describe("PROFILE-01's schemas come from the contract", () => {
  const settings = (env: Record<string, string> = {}) =>
    readTargetConfig({ ZONES_BASE_URL: 'https://shop.example', ZONES_ACCESS_TOKEN: 'token', ...env });
  const { Zone, ZoneAnswer, ZoneList, Error: ErrorBody, DeleteAnswer } = contract.components.schemas;

  test('under the default settings, the component schemas exactly, with the zone put in for its reference', () => {
    const config = settings();
    expect(validatorFor(config, 'zone answer').schema).toEqual({ ...ZoneAnswer, properties: { zone: Zone } });
    expect(validatorFor(config, 'zone list').schema).toEqual({
      ...ZoneList,
      properties: { zones: { ...ZoneList.properties.zones, items: Zone } },
    });
    expect(validatorFor(config, 'error').schema).toEqual(ErrorBody);
    expect(validatorFor(config, 'delete answer').schema).toEqual(DeleteAnswer);
  });

  test('the settings move the id, the statuses and the envelope', () => {
    const zone = { uuid: 'c0ffee', name: 'A', coverage: { any: 'thing' }, status: 'live', extra: true };
    const bare = settings({ ZONES_ENVELOPE: 'bare', ZONES_ID_FIELD: 'uuid', ZONES_STATUSES: 'draft,live' });
    expect(validatorFor(bare, 'zone answer')(zone)).toBe(true);
    expect(validatorFor(bare, 'zone list')([zone])).toBe(true);
    expect(validatorFor(bare, 'zone answer')({ ...zone, status: 'published' })).toBe(false);
    expect(validatorFor(bare, 'zone answer')({ ...zone, uuid: undefined, id: 7 })).toBe(false);

    const dotted = settings({
      ZONES_ZONE_KEY: 'data.item',
      ZONES_LIST_KEY: 'data.items',
      ZONES_ID_FIELD: 'uuid',
      ZONES_STATUSES: 'draft,live',
    });
    expect(validatorFor(dotted, 'zone answer')({ data: { item: zone } })).toBe(true);
    expect(validatorFor(dotted, 'zone list')({ data: { items: [zone] } })).toBe(true);
    expect(validatorFor(dotted, 'zone answer')({ zone })).toBe(false);
    expect(validatorFor(dotted, 'zone list')({ data: { items: [{ ...zone, name: 5 }] } })).toBe(false);
  });
});

describe("the reference's answers in the default style match the contract's responses", () => {
  const TOKEN = 'shpat_contract_0123456789abcdef';
  let reference: RunningReference;
  let resolved: Json;
  const ajv = new Ajv2020({ allErrors: true, strict: false });

  beforeAll(async () => {
    reference = await startReference({ token: TOKEN, style: 'default' });
    const validator = new Validator();
    await validator.validate(structuredClone(contract));
    resolved = validator.resolveRefs();
  });
  afterAll(() => reference.close());

  async function call(method: string, path: string, body?: string, credential = true) {
    const answer = await fetch(`${reference.url}${path}`, {
      method,
      headers: credential ? { 'X-Shopify-Access-Token': TOKEN, 'content-type': 'application/json' } : {},
      body,
    });
    return { status: answer.status, type: answer.headers.get('content-type'), text: await answer.text() };
  }

  /** What the contract says of this answer, or why it says nothing. */
  function judged(method: string, template: string, answer: Awaited<ReturnType<typeof call>>): string[] {
    const responses = resolved.paths[template][method.toLowerCase()].responses;
    const response = responses[String(answer.status)] ?? responses[`${String(answer.status)[0]}XX`];
    if (!response) return [`${method} ${template}: the contract has no response ${answer.status}`];
    const schema = response.content?.['application/json']?.schema;
    if (schema === undefined)
      return answer.text === '' ? [] : [`${answer.status} has a body the contract does not show`];
    if (!answer.type?.startsWith('application/json')) return [`${answer.status} came as ${answer.type}`];
    const validate = ajv.compile(schema);
    if (validate(JSON.parse(answer.text))) return [];
    return (validate.errors ?? []).map(
      (error) => `${answer.status}: ${error.instancePath || '(body)'} ${error.message}`,
    );
  }

  const zoneBody = (name: string) => JSON.stringify({ zone: { name, coverage: { countries: ['DE'] } } });
  const zonePath = (id: number) => `/admin/api/2026-07/zones/${id}.json`;

  test('list, create, update and delete', async () => {
    const created = await call('POST', COLLECTION, zoneBody('Contract'));
    const { id } = JSON.parse(created.text).zone;
    const listed = await call('GET', COLLECTION);
    const filtered = await call('GET', `${COLLECTION}?status=draft`);
    const updated = await call('PUT', zonePath(id), JSON.stringify({ zone: { name: 'Renamed', status: 'published' } }));
    const deleted = await call('DELETE', zonePath(id));
    expect([created, listed, filtered, updated, deleted].map((answer) => answer.status)).toEqual([
      201, 200, 200, 200, 200,
    ]);
    expect([
      ...judged('POST', COLLECTION, created),
      ...judged('GET', COLLECTION, listed),
      ...judged('GET', COLLECTION, filtered),
      ...judged('PUT', ONE_ZONE, updated),
      ...judged('DELETE', ONE_ZONE, deleted),
    ]).toEqual([]);
  });

  test('errors: no credential, an unknown id, a body that is not JSON, a booked zone', async () => {
    const booked = JSON.parse((await call('POST', COLLECTION, zoneBody('Booked'))).text).zone.id;
    await fetch(`${reference.url}/__reference__/zones/${booked}/bookings`, { method: 'POST' });
    const unauthenticated = await call('GET', COLLECTION, undefined, false);
    const unknown = await call('PUT', zonePath(999_999), zoneBody('Nobody'));
    const malformed = await call('POST', COLLECTION, '{"zone": {');
    const refused = await call('DELETE', zonePath(booked));
    expect([unauthenticated, unknown, malformed, refused].map((answer) => answer.status)).toEqual([401, 404, 400, 422]);
    expect([
      ...judged('GET', COLLECTION, unauthenticated),
      ...judged('PUT', ONE_ZONE, unknown),
      ...judged('POST', COLLECTION, malformed),
      ...judged('DELETE', ONE_ZONE, refused),
    ]).toEqual([]);
  });

  test('and an answer that breaks the contract is found', () => {
    const answer = { status: 201, type: 'application/json', text: '{"zone":{"id":1,"name":"x","status":"draft"}}' };
    expect(judged('POST', COLLECTION, answer)).toEqual([
      expect.stringContaining("must have required property 'coverage'"),
    ]);
    expect(judged('POST', COLLECTION, { ...answer, status: 500 })).toEqual([
      expect.stringContaining('the contract has no response 500'),
    ]);
  });
});
