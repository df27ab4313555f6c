// A rule that no random sequence happened to check is checked by the shortest sequence that does,
// so a rule is never left unverified by chance. Each of these is one or two operations and a read,
// too short for any defect that only a longer sequence shows: those are the random sequences' to find.
import type { TargetConfig } from '../../config.ts';
import { CreateCommand, DeleteCommand, ListCommand, OLDEST, UpdateCommand, type ZoneCommand } from './commands.ts';

/** The sequence that checks this rule, or none when the settings give it no way (DELETE-02 without hooks). */
export function topUpFor(rule: string, config: TargetConfig): ZoneCommand[] | undefined {
  const create = () => new CreateCommand(undefined, 0);
  const list = (filter?: string) => new ListCommand(filter);
  const others = config.statuses.filter((status) => status !== 'draft');
  // Each zone is listed before the operation under check, so that what it does to the zone shows;
  // every sequence ends with a read of the whole list.
  switch (rule) {
    case 'CREATE-01':
    case 'CREATE-02':
      return [create()];
    case 'CREATE-03':
      return [new CreateCommand(others[0], 0)];
    case 'LIST-01':
      return [create(), list()];
    case 'LIST-02':
      return [create(), list(), list('draft')];
    case 'UPDATE-01':
      return [create(), list(), new UpdateCommand(OLDEST, { name: true })];
    case 'UPDATE-02':
      return [create(), list(), new UpdateCommand(OLDEST, { coverage: 0 })];
    case 'UPDATE-03':
      // Which moves are allowed is not shown: each other status is tried in turn.
      return [create(), list(), ...others.map((_, n) => new UpdateCommand(OLDEST, { status: n }))];
    case 'UPDATE-04':
      return [create(), create(), list(), new UpdateCommand(OLDEST, { name: true })];
    case 'DELETE-01':
      return [create(), list(), new DeleteCommand(OLDEST, false)];
    case 'DELETE-02':
      return config.bookingHook && config.bookingCleanupHook
        ? [create(), list(), new DeleteCommand(OLDEST, true)]
        : undefined;
    default:
      return undefined;
  }
}
