// Four short sequences every model-based run plays before its random ones, one for each kind of defect
// that only a sequence shows and that real servers have. Random sequences find these too, but not on
// every seed (a night that draws no rename then another update of one zone misses an undone rename).
import { create, list, OLDEST, remove, update } from './commands.ts';

/** Each says what kind of defect it would show, for a reader of the code and of failures. */
export const stories = [
  {
    about: 'a filtered list served from a cache that a later status change does not refresh',
    // The update is read back in the filter it left and the one it joined.
    commands: [create(), list('draft'), update(OLDEST, { status: 0 })],
  },
  {
    about: 'a field that a later, unrelated update quietly undoes',
    commands: [create(), update(OLDEST, { name: true }), update(OLDEST, { coverage: 0 })],
  },
  {
    about: 'a deleted zone that shows up again after the next create',
    commands: [create(), remove(OLDEST, false), create(), list()],
  },
  {
    about: 'a change that lands on the wrong zone once several zones exist',
    commands: [create(), create(), create(), create(), list(), update(OLDEST, { name: true })],
  },
];
