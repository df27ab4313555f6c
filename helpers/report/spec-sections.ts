// The specification's own words, for reports that quote them beside a rule. A rule's `source` (the
// catalogue, helpers/rules.ts) is one or more references joined by "; ", each a heading of the
// specification, optionally a numbered item or a range of them, optionally a quote that must stand
// there: "Authentication 1; Errors 2", "Endpoints rule 4", "Versioning 1-2", "Endpoints: POST".
// The profile's conventions are no part of the specification and say so: "profile: ...".
// selftest/catalogue/spec-sections.ts checks every source against the text with the same reading.
import { readFileSync } from 'node:fs';
import { inProject } from '../project-root.ts';

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

export const PROFILE_SOURCE = 'profile:';

export interface Reference {
  text: string;
  heading?: string;
  /** Whether the reference names item numbers; `numbers` is then empty only for a backward range. */
  itemsNamed: boolean;
  numbers: number[];
  quote?: string;
}

const REFERENCE = /^(?<heading>.+?)(?: (?:rule )?(?<from>\d+)(?:-(?<to>\d+))?)?(?:: (?<quote>.+))?$/;

function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
}

/** A source's references, each as its heading, its item numbers (none: the whole section) and its quote. */
export function referencesOf(source: string): Reference[] {
  return source.split('; ').map((text) => {
    const { heading, from, to, quote } = REFERENCE.exec(text)?.groups ?? {};
    const numbers = from === undefined ? [] : range(Number(from), Number(to ?? from));
    return { text, heading, itemsNamed: from !== undefined, numbers, quote };
  });
}

export interface SpecQuote {
  /** The reference as the catalogue writes it, e.g. "Authentication 1". */
  reference: string;
  /** The words it points at: its numbered items, or the quote it names, else nothing. */
  words: string[];
}

/**
 * What a rule's source says in the specification's words: each numbered item it cites, or the quote
 * it names within a section. A whole section is not quoted (it can be a table), only named.
 */
export function quotesOf(source: string, sections: ReadonlyMap<string, SpecSection>): SpecQuote[] {
  if (source.startsWith(PROFILE_SOURCE)) return [];
  return referencesOf(source).map(({ text, heading, numbers, quote }) => {
    const section = heading === undefined ? undefined : sections.get(heading);
    if (section === undefined) return { reference: text, words: [] };
    const items = numbers.flatMap((n) => section.items.get(n) ?? []);
    return { reference: text, words: items.length > 0 ? items : quote === undefined ? [] : [quote] };
  });
}

let read: Map<string, SpecSection> | undefined;

/** The specification's sections as shipped with the suite; none when its copy is missing. */
export function specSections(): ReadonlyMap<string, SpecSection> {
  if (read === undefined) {
    try {
      read = readSections(readFileSync(inProject(SPEC_PATH), 'utf8'));
    } catch {
      read = new Map();
    }
  }
  return read;
}
