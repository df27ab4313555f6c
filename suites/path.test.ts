// Paths, spec Endpoints and Versioning: all four operations live under {base_url}/admin/api/{version}/,
// the collection at zones.json and one zone at zones/{zone_id}.json.
import { expect } from 'vitest';
import type { Answer } from '../helpers/evidence/exchange.ts';
import { type ConformanceContext, notVerified, ruleCases } from '../helpers/harness/rule-test.ts';
import { otherVersionNote } from '../helpers/rules.ts';

const operations: { label: string; send: (context: ConformanceContext) => Promise<Answer> }[] = [
  { label: 'GET zones.json answers', send: ({ api }) => api.listZones() },
  {
    label: 'POST zones.json answers',
    send: ({ api, zones }) => api.createZone({ name: zones.uniqueName(), coverage: zones.coverage(0) }),
  },
  {
    label: 'PUT zones/{zone_id}.json answers',
    send: async ({ zones }) => zones.update(await zones.create(), { name: zones.uniqueName() }),
  },
  {
    label: 'DELETE zones/{zone_id}.json answers',
    send: async ({ api, zones }) => api.deleteZone((await zones.create()).id),
  },
];

ruleCases('PATH-01', operations, async ({ send }, context) => {
  // The specification fixes the segment; a shop checked at another one says nothing about it.
  const otherVersion = otherVersionNote(context.target.apiVersion);
  if (otherVersion !== undefined) notVerified(context, otherVersion);
  expect(await send(context)).toSucceed();
});
