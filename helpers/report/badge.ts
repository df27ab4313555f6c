// badge.svg: the verdict as a small two-part badge ("conformance | conformant") that a README or a
// wiki page can show from the last night's artifacts. Drawn here, sized by a rough text width.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ShownVerdict, VERDICTS } from '../judging/states.ts';

const LABEL = 'conformance';
/** About the advance of an 11 px sans-serif character; the badge only needs room, not precision. */
const CHAR_WIDTH = 7;
const PADDING = 10;

export function badgeSvg(verdict: ShownVerdict): string {
  const { words: text, colour } = VERDICTS[verdict];
  const left = LABEL.length * CHAR_WIDTH + PADDING;
  const right = text.length * CHAR_WIDTH + PADDING;
  const width = left + right;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${LABEL}: ${text}">`,
    `  <title>${LABEL}: ${text}</title>`,
    `  <rect width="${width}" height="20" rx="3" fill="#555"/>`,
    `  <rect x="${left}" width="${right}" height="20" rx="3" fill="${colour}"/>`,
    // Squares off the coloured part's left corners, where it meets the label.
    `  <rect x="${left}" width="4" height="20" fill="${colour}"/>`,
    `  <g fill="#fff" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11" text-anchor="middle">`,
    `    <text x="${left / 2}" y="14">${LABEL}</text>`,
    `    <text x="${left + right / 2}" y="14">${text}</text>`,
    '  </g>',
    '</svg>',
    '',
  ].join('\n');
}

export function writeBadge(reportsDir: string, verdict: ShownVerdict): string {
  mkdirSync(reportsDir, { recursive: true });
  const path = join(reportsDir, 'badge.svg');
  writeFileSync(path, badgeSvg(verdict));
  return path;
}
