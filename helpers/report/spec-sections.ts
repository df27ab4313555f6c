// The specification's own words, for the page to quote beside a rule. A rule's `source` (helpers/rules.ts)
// is references joined by "; ", each a heading, optionally a numbered item or range, optionally a quote:
// "Authentication 1; Errors 2", "Endpoints rule 4", "Versioning 1-2", "Endpoints: POST"; or the
// profile's "profile: ...". selftest/catalogue/spec-sections.ts checks every source with the same reading.
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

const REFERENCE = /^(?<heading>.+?)(?: (?:rule )?(?<from>\d+)(?:-(?<to>\d+))?)?(?:: (?<quote>.+))?$/;

const range = (from: number, to: number) => Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);

/**
 * A source's references, each as its heading, its item numbers (none: the whole section) and its quote;
 * `itemsNamed` when it names item numbers, so that `numbers` is then empty only for a backward range.
 */
export function referencesOf(source: string) {
  return source.split('; ').map((text) => {
    const { heading, from, to, quote } = REFERENCE.exec(text)?.groups ?? {};
    const numbers = from === undefined ? [] : range(Number(from), Number(to ?? from));
    return { text, heading, itemsNamed: from !== undefined, numbers, quote };
  });
}

let read: ReadonlyMap<string, SpecSection> | undefined;

/** The specification's sections as shipped with the suite; none when its copy is missing. */
function specSections(): ReadonlyMap<string, SpecSection> {
  try {
    read ??= readSections(readFileSync(inProject(SPEC_PATH), 'utf8'));
  } catch {
    read = new Map();
  }
  return read;
}

/** Each reference of a source with its words, numbered items or quote; a whole section (maybe a table) is not quoted. */
export function quotesOf(source: string): { reference: string; words: string[] }[] {
  return referencesOf(source).flatMap(({ text, heading, numbers, quote }) => {
    const section = heading === undefined ? undefined : specSections().get(heading);
    const items = numbers.flatMap((n) => section?.items.get(n) ?? []);
    const words = items.length > 0 ? items : quote === undefined || section === undefined ? [] : [quote];
    return words.length > 0 ? [{ reference: text, words }] : [];
  });
}
