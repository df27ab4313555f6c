// What would set a difference away in the mock's profile, when the mock is `npm run mock`: the "mock" section's key
// (docs/mock.md) with the service's own choice, where the specification leaves one. A difference the section cannot
// say (a status the specification fixes, a field's type, a value) carries none.
import { parseJson, stringifyJson } from '../json.ts';
import { SETTABLE_FIELDS } from '../settings.ts';
import type { DriftSettings } from './compare.ts';
import type { Difference } from './differences.ts';

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

/** The service's value of `field` in the first object of its answer that has it, as a profile would write it. */
function serviceValue(body: string | undefined, field: string, idField: string): unknown {
  const found = [body === undefined ? undefined : parseJson(body)];
  while (found.length > 0) {
    const value = found.shift();
    if (value === null || typeof value !== 'object') continue;
    const object = value as Record<string, unknown>;
    if (!Object.hasOwn(object, field)) found.push(...Object.values(object));
    else if (typeof object[field] !== 'string') return JSON.parse(stringifyJson(object[field]));
    else if (ISO_TIME.test(object[field])) return '{now}';
    else return object[field].replaceAll(String(object[idField]), '{id}');
  }
  return undefined;
}

export function mockSettingOf(difference: Difference, settings: DriftSettings): Record<string, unknown> | undefined {
  const { aspect, subject = '', operation, exchanges } = difference;
  const [service, mock] = [Number(difference.service), Number(difference.mock)];
  const both = (codes: number[]) => codes.includes(service) && codes.includes(mock);
  if (aspect === 'status') {
    if (operation === 'create' && both([200, 201])) return { created: service };
    if (operation === 'delete' && both([200, 204])) return { deleted: service };
    if (both([401, 403])) return { unauthenticated: service };
    // A booked zone's delete is DELETE-02's: told by any step the difference was seen at, not only its first.
    const booked = operation === 'delete' && difference.cases.some((each) => each.startsWith('DELETE-02'));
    if (operation !== 'list' && both([400, 422]) && !booked) return { invalid: service };
    if (booked && service >= 400 && service < 500) return { booked: service };
    if (operation === 'list' && difference.case.includes('zc-no-such-status'))
      return { unknown_status_filter: service < 300 ? 'empty' : 'refused' };
  }
  const keys = /^\{"([^"]+)"\}$/.exec(difference.service);
  if (aspect === 'error-body' && keys) return { error_key: keys[1] };
  const type = exchanges.service?.answer?.headers['content-type'];
  if (aspect === 'content-type' && type) return { content_type: type };
  const field = /^<zone>\.([^.[\]]+)$/.exec(subject)?.[1];
  if (aspect !== 'shape' || field === undefined) return undefined;
  if (field === settings.idField && ['number', 'string'].includes(difference.service))
    return { id_style: difference.service };
  // A documented field is the mock's own to show (a store that keeps no status is no setting away).
  if (SETTABLE_FIELDS.includes(field)) return undefined;
  if (difference.mock !== 'absent') return undefined;
  const value = serviceValue(exchanges.service?.answer?.body, field, settings.idField);
  return value === undefined ? undefined : { extra_fields: { [field]: value } };
}

/** Every difference's setting in one "mock" section, to paste into the mock's profile. */
export function mockSection(differences: readonly Difference[]): Record<string, unknown> | undefined {
  const section: Record<string, unknown> = {};
  for (const { mock_setting: setting } of differences)
    for (const [key, value] of Object.entries(setting ?? {}))
      section[key] = key === 'extra_fields' ? { ...(section[key] as object), ...(value as object) } : value;
  return Object.keys(section).length === 0 ? undefined : section;
}
