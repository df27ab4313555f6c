// Reads the specification's sections, so that a rule's `source` can be checked against the text it
// cites (test262 lints its esids the same way). A source is one or more references joined by "; ",
// each a heading of the specification, optionally a numbered item or a range of them, optionally a
// quote that must stand in that section or item:
//   "Authentication 1; Errors 2", "Endpoints rule 4", "Versioning 1-2", "Endpoints: POST",
//   "Authentication 1: a request without it is not a valid call".
// The profile's conventions are no part of the specification and say so: "profile: ...".

export const SPEC_PATH = 'docs/zone-service-2026-07.md';

export interface SpecSection {
  heading: string;
  /** The section's own text, down to the next heading of its level or above. */
  text: string;
  /** Its numbered items ("1. ..."), by number. */
  items: Map<number, string>;
}

export function readSections(markdown: string): Map<string, SpecSection> {
  const lines = markdown.split('\n');
  const headings = lines.flatMap((line, at) => {
    const match = /^(#{1,6})\s+(.+?)\s*$/.exec(line);
    return match ? [{ level: match[1]!.length, heading: match[2]!, at }] : [];
  });
  const sections = new Map<string, SpecSection>();
  for (const [index, { level, heading, at }] of headings.entries()) {
    const end = headings.slice(index + 1).find((next) => next.level <= level)?.at ?? lines.length;
    const body = lines.slice(at + 1, end);
    const items = new Map<number, string>();
    for (const line of body) {
      const item = /^(\d+)\.\s+(.*)$/.exec(line);
      if (item) items.set(Number(item[1]), item[2]!);
    }
    sections.set(heading, { heading, text: body.join('\n'), items });
  }
  return sections;
}

const PROFILE = 'profile:';
const REFERENCE = /^(?<heading>.+?)(?: (?:rule )?(?<from>\d+)(?:-(?<to>\d+))?)?(?:: (?<quote>.+))?$/;

const squeezed = (text: string) => text.replace(/\s+/g, ' ');

/** Why a source does not hold against the specification; empty when every reference finds its text. */
export function sourceProblems(source: string, sections: ReadonlyMap<string, SpecSection>): string[] {
  return source.split('; ').flatMap((reference) => {
    const { heading, from, to, quote } = REFERENCE.exec(reference)?.groups ?? {};
    const section = heading === undefined ? undefined : sections.get(heading);
    if (!section) return [`"${reference}" names no heading of ${SPEC_PATH}`];
    const numbers = from === undefined ? [] : range(Number(from), Number(to ?? from));
    if (from !== undefined && numbers.length === 0) return [`"${reference}" is an empty range`];
    const missing = numbers.filter((n) => !section.items.has(n));
    if (missing.length > 0) return [`"${reference}": ${heading} has no numbered item ${missing.join(', ')}`];
    const where = numbers.length > 0 ? numbers.map((n) => section.items.get(n)!).join(' ') : section.text;
    if (quote !== undefined && !squeezed(where).includes(squeezed(quote)))
      return [`"${reference}": "${quote}" is not in ${heading}${numbers.length > 0 ? ` ${numbers.join(', ')}` : ''}`];
    return [];
  });
}

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

/** A rule's source: a SHOULD rule may rest on the profile; a MUST rule only on the specification. */
export function ruleSourceProblems(
  rule: { id: string; level: string; source: string },
  sections: ReadonlyMap<string, SpecSection>,
): string[] {
  if (rule.source.startsWith(PROFILE)) {
    return rule.level === 'must'
      ? [`${rule.id} is a MUST rule resting on the profile ("${rule.source}"): a MUST needs the specification`]
      : [];
  }
  return sourceProblems(rule.source, sections).map((problem) => `${rule.id}: ${problem}`);
}
