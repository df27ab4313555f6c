// Four short sequences every model-based run plays before its random ones, one for each kind of
// defect that only a sequence shows and that real servers are known to have. Random sequences find
// these too, but not on every seed: a night that happens to draw no rename followed by another
// update of the same zone would pass a shop that undoes renames. These make the common cases
// certain and leave the random sequences for the combinations nobody wrote down.
import { CreateCommand, DeleteCommand, ListCommand, OLDEST, UpdateCommand, type ZoneCommand } from './commands.ts';

export interface Story {
  /** What kind of defect the story would show, for a reader of the code and of failures. */
  about: string;
  commands: ZoneCommand[];
}

export function stories(): Story[] {
  const create = () => new CreateCommand(undefined, 0);
  const list = (filter?: string) => new ListCommand(filter);
  return [
    {
      about: 'a filtered list served from a cache that a later status change does not refresh',
      // The update is read back in the filter it left and the one it joined.
      commands: [create(), list('draft'), new UpdateCommand(OLDEST, { status: 0 })],
    },
    {
      about: 'a field that a later, unrelated update quietly undoes',
      commands: [create(), new UpdateCommand(OLDEST, { name: true }), new UpdateCommand(OLDEST, { coverage: 0 })],
    },
    {
      about: 'a deleted zone that shows up again after the next create',
      commands: [create(), new DeleteCommand(OLDEST, false), create(), list()],
    },
    {
      about: 'a change that lands on the wrong zone once several zones exist',
      commands: [create(), create(), create(), create(), list(), new UpdateCommand(OLDEST, { name: true })],
    },
  ];
}
