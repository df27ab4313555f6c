// The sequences written in advance. The stories, played before the random ones, each for a kind of defect
// that only a sequence shows and real servers have: random sequences find these too, but not on every seed
// (a night that draws no rename then another update of one zone misses an undone rename). And the top-ups:
// a rule no random sequence happened to check is checked by the shortest sequence that does, so it is never
// left unverified by chance; too short for any defect that only a longer sequence shows.
import type { TargetConfig } from '../../config.ts';
import { canBook, create, list, OLDEST, remove, update, type ZoneCommand } from './commands.ts';

// Each zone is listed before the operation under check, so that what it does shows. `others`: not draft.
const TOP_UPS: Record<string, (others: readonly string[]) => ZoneCommand[]> = {
  'CREATE-01': () => [create()],
  'CREATE-02': () => [create()],
  'CREATE-03': (others) => [create(others[0])],
  'LIST-01': () => [create(), list()],
  'LIST-02': () => [create(), list(), list('draft')],
  'UPDATE-01': () => [create(), list(), update(OLDEST, { name: true })],
  'UPDATE-02': () => [create(), list(), update(OLDEST, { coverage: 0 })],
  // Which moves are allowed is not shown: each other status is tried in turn.
  'UPDATE-03': (others) => [create(), list(), ...others.map((_, n) => update(OLDEST, { status: n }))],
  'UPDATE-04': () => [create(), create(), list(), update(OLDEST, { name: true })],
  'DELETE-01': () => [create(), list(), remove(OLDEST, false)],
  'DELETE-02': () => [create(), list(), remove(OLDEST, true)],
};

/** Every rule the model can check, in the order of their tests. */
export const MODEL_RULES = Object.keys(TOP_UPS);

/** The rules the model checks on this shop; DELETE-02 only when the sequences can book a zone and unbook it again. */
export function modelRules(config: TargetConfig): string[] {
  if (config.model.runs === 0) return [];
  return MODEL_RULES.filter((rule) => rule !== 'DELETE-02' || canBook(config));
}

/** The shortest sequence that checks this rule, one of modelRules. */
export function topUpFor(rule: string, config: TargetConfig): ZoneCommand[] {
  return TOP_UPS[rule]!(config.statuses.filter((status) => status !== 'draft'));
}

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
