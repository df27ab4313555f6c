// A generated table lives in a hand-written page between two marker comments; only the part between
// them is rewritten, so the prose around it stays the author's.

export interface Markers {
  /** The file the markers stand in, for the message when they are lost. */
  file: string;
  begin: string;
  end: string;
}

/** The text with the part between the markers written afresh as `table`. */
export function withTableBetween(text: string, markers: Markers, table: string): string {
  const begin = text.indexOf(markers.begin);
  const end = text.indexOf(markers.end);
  if (begin < 0 || end < begin)
    throw new Error(
      `${markers.file} has lost a table's markers; put these two lines back:\n${markers.begin}\n${markers.end}`,
    );
  return `${text.slice(0, begin + markers.begin.length)}\n\n${table}\n\n${text.slice(end)}`;
}

/** A table cell: a pipe would end the cell early, and `<token>` would be read as an HTML tag and vanish. */
export const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('<', '&lt;');
