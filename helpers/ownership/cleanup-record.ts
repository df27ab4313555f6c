// What one clean-up (a test's fixture, the final sweep) did with the zones it owned, as task.meta carries it.
export interface CleanupRecord {
  created: number;
  deleted: number;
  leftBehind: LeftZone[];
}

/** A zone a clean-up could not delete, and why. */
export interface LeftZone {
  id: string;
  reason: string;
  /** The last name the run sent for it (the shop may have refused that one), when the final sweep knows it. */
  name?: string;
  /** The final sweep's command that deletes it once what kept it is gone; null when nothing proves the zone the run's. */
  removeWith?: string | null;
}
