// Paths, spec Endpoints and Versioning: all four operations live under {base_url}/admin/api/{version}/,
// the collection at zones.json and one zone at zones/{zone_id}.json.
import { expect } from 'vitest';
import { notVerified } from '../helpers/harness/not-verified.ts';
import { ruleCases } from '../helpers/harness/rule-test.ts';
import { otherVersionNote } from '../helpers/rules.ts';

const operations = [
  { operation: 'list', label: 'GET zones.json answers' },
  { operation: 'create', label: 'POST zones.json answers' },
  { operation: 'update', label: 'PUT zones/{zone_id}.json answers' },
  { operation: 'delete', label: 'DELETE zones/{zone_id}.json answers' },
] as const;

ruleCases('PATH-01', operations, async ({ operation }, context) => {
  const { api, zones, target } = context;
  // The specification fixes the segment; a shop checked at another one says nothing about it.
  const otherVersion = otherVersionNote(target.apiVersion);
  if (otherVersion !== undefined) notVerified(context, otherVersion);
  if (operation === 'list') {
    expect(await api.listZones()).toSucceed();
  } else if (operation === 'create') {
    expect(await api.createZone({ name: zones.uniqueName(), coverage: zones.coverage(0) })).toSucceed();
  } else {
    const zone = await zones.create();
    const answer =
      operation === 'update' ? await zones.update(zone, { name: zones.uniqueName() }) : await api.deleteZone(zone.id);
    expect(answer).toSucceed();
  }
});
