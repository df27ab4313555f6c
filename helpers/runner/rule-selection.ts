// `--rule AUTH,CREATE-02`: which rules a partial run checks, read against the catalogue rather than
// matched over titles, so that a family name never picks up another family's tests by their wording.
import { listOf } from '../config.ts';
import { CannotRunError } from '../exit-codes.ts';
import { rules } from '../rules.ts';

/** A rule's family is its id before the number: AUTH-01 is in AUTH. */
export function familyOf(id: string): string {
  return id.replace(/-\d+$/, '');
}

export function families(): string[] {
  return [...new Set(rules.map((rule) => familyOf(rule.id)))];
}

/**
 * The rule ids a `--rule` value names, in catalogue order: each comma-separated item is a rule id or
 * a family, in any case. Anything else stops the run before a request, naming what was not known.
 */
export function selectRules(value: string): string[] {
  const items = listOf(value.toUpperCase());
  const unknown = items.filter((item) => !rules.some((rule) => rule.id === item || familyOf(rule.id) === item));
  if (items.length === 0 || unknown.length > 0) {
    const what = items.length === 0 ? 'names no rule' : `does not know ${unknown.join(', ')}`;
    throw new CannotRunError(
      `--rule ${what}: give rule ids (AUTH-01) or families (${families().join(', ')}), comma-separated; --list shows the rules`,
    );
  }
  return rules.filter((rule) => items.includes(rule.id) || items.includes(familyOf(rule.id))).map((rule) => rule.id);
}

/**
 * vitest's test-name pattern for exactly these rules' tests. Every title starts with its rule id and a
 * space (helpers/harness/rule-test.ts), and a test outside any describe block has its title as its full name.
 */
export function testNamePatternFor(ids: readonly string[]): string {
  return `^(?:${ids.join('|')}) `;
}
