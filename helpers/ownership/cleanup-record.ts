// What one clean-up did with the zones it owned: each test's fixture and the final sweep report it in
// this shape, and the workers hand it to the launcher in task.meta.
export interface CleanupRecord {
  created: number;
  deleted: number;
  leftBehind: { id: string; reason: string }[];
}
