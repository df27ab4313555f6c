// Deleting a zone of this run and knowing that it is gone: the one way the tear-down, the final sweep
// and `npm run sweep` remove a zone. A DELETE that succeeds is taken at its word. One that does not
// may still have done the work (a 404 for a zone already gone, a 5xx after the delete), so the list
// decides: gone only when it can be read and no longer shows the zone.

import { listedZone, readableZones } from '../client/list-lookups.ts';
import type { ZoneId } from '../client/records.ts';
import { isSuccess, type ZonesClient } from '../client/zones-client.ts';

export type Removal = { gone: true } | { gone: false; why: string };

export async function deleteAndConfirmGone(api: ZonesClient, id: ZoneId): Promise<Removal> {
  try {
    const answer = await api.deleteZone(id);
    if (isSuccess(answer)) return { gone: true };
    const list = await api.listZones();
    if (readableZones(list) === undefined)
      return {
        gone: false,
        why: `DELETE answered ${answer.status}, and the list cannot be read to see whether it went`,
      };
    if (listedZone(list, id))
      return { gone: false, why: `DELETE answered ${answer.status} and the zone is still listed` };
    api.ledger.recordDeleted(id.text);
    return { gone: true };
  } catch (error) {
    return { gone: false, why: error instanceof Error ? error.message.split('\n')[0]! : String(error) };
  }
}
