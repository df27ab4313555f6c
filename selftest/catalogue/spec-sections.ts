// Reads the specification's sections, so that a rule's `source` can be checked against the text it
// cites (test262 lints its esids the same way). A source is one or more references joined by "; ",
// each a heading of the specification, optionally a numbered item or a range of them, optionally a
// quote that must stand in that section or item:
//   "Authentication 1; Errors 2", "Endpoints rule 4", "Versioning 1-2", "Endpoints: POST",
//   "Authentication 1: a request without it is not a valid call".
// The profile's conventions are no part of the specification and say so: "profile: ...".

import { PROFILE_SOURCE, referencesOf, SPEC_PATH, type SpecSection } from '../../helpers/report/spec-sections.ts';

export { readSections, SPEC_PATH, type SpecSection } from '../../helpers/report/spec-sections.ts';

const squeezed = (text: string) => text.replace(/\s+/g, ' ');

/** Why a source does not hold against the specification; empty when every reference finds its text. */
export function sourceProblems(source: string, sections: ReadonlyMap<string, SpecSection>): string[] {
  return referencesOf(source).flatMap(({ text: reference, heading, itemsNamed, numbers, quote }) => {
    const section = heading === undefined ? undefined : sections.get(heading);
    if (!section) return [`"${reference}" names no heading of ${SPEC_PATH}`];
    if (itemsNamed && numbers.length === 0) return [`"${reference}" is an empty range`];
    const missing = numbers.filter((n) => !section.items.has(n));
    if (missing.length > 0) return [`"${reference}": ${heading} has no numbered item ${missing.join(', ')}`];
    const where = numbers.length > 0 ? numbers.map((n) => section.items.get(n)!).join(' ') : section.text;
    if (quote !== undefined && !squeezed(where).includes(squeezed(quote)))
      return [`"${reference}": "${quote}" is not in ${heading}${numbers.length > 0 ? ` ${numbers.join(', ')}` : ''}`];
    return [];
  });
}

/** A rule's source: a SHOULD rule may rest on the profile; a MUST rule only on the specification. */
export function ruleSourceProblems(
  rule: { id: string; level: string; source: string },
  sections: ReadonlyMap<string, SpecSection>,
): string[] {
  if (rule.source.startsWith(PROFILE_SOURCE)) {
    return rule.level === 'must'
      ? [`${rule.id} is a MUST rule resting on the profile ("${rule.source}"): a MUST needs the specification`]
      : [];
  }
  return sourceProblems(rule.source, sections).map((problem) => `${rule.id}: ${problem}`);
}
