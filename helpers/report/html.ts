// HTML safe by construction: the `html` template escapes every value but its own results, so what a shop or
// a run says can only ever be text; only the markup written in the templates is markup.

/** Markup the page itself wrote: the one kind of value the template puts in as it is. */
export class Html {
  constructor(readonly markup: string) {}
}

type Value = Html | string | number | boolean | null | undefined | readonly Value[];

/** Text as HTML text or a quoted attribute value: no character of it can open a tag or close a quote. */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function piece(value: Value): string {
  if (value instanceof Html) return value.markup;
  if (Array.isArray(value)) return value.map(piece).join('');
  // A condition that did not hold adds nothing: `${open && html`...`}`.
  if (value === null || value === undefined || value === false) return '';
  return String(value).replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

export function html(strings: TemplateStringsArray, ...values: readonly Value[]): Html {
  return new Html(
    strings.reduce((done, text, index) => done + text + (index < values.length ? piece(values[index]!) : ''), ''),
  );
}
