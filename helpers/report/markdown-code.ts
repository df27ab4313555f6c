// Text shown as code in Markdown (conformance.md, summary.md, Allure's descriptions): fenced or inline,
// with more backticks than any run of them in the text, so that nothing in the text can close it.

function longestBacktickRun(text: string): number {
  return Math.max(0, ...[...text.matchAll(/`+/g)].map((run) => run[0].length));
}

/** A code block as its lines: the opening fence (with `info`, e.g. `sh`), the text, the closing fence. */
export function fenced(text: string, info = ''): string[] {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(text) + 1));
  return [`${fence}${info}`, ...text.split('\n'), fence];
}

/** Inline code that survives backticks in the text. */
export function code(text: string): string {
  const longest = longestBacktickRun(text);
  const ticks = '`'.repeat(longest + 1);
  return longest === 0 ? `${ticks}${text}${ticks}` : `${ticks} ${text} ${ticks}`;
}
