// The links of the project's Markdown pages, checked from the files alone: a relative link must name
// a file of the repository, and a `#fragment` (in the page itself or in another .md file) must name a
// heading there, by the slug GitHub gives it, since GitHub is where a reader follows them.

/** The lines of a page outside fenced code blocks, where a `#` starts a comment, not a heading. */
function proseLines(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}

/** A heading's text as GitHub renders it: a link shows its text, code and emphasis lose their marks. */
function renderedText(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '');
}

/**
 * The anchor GitHub makes of a heading: lower case, every character but letters, digits, marks,
 * connectors (the underscore), hyphens and spaces dropped, spaces turned into hyphens.
 */
export function githubSlug(heading: string): string {
  return renderedText(heading)
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page's headings give, a repeated heading's as GitHub numbers it (`-1`, `-2`, ...). */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = githubSlug(heading);
    const times = seen.get(slug) ?? 0;
    seen.set(slug, times + 1);
    anchors.add(times === 0 ? slug : `${slug}-${times}`);
  }
  return anchors;
}

/** The targets of a page's inline links, outside code blocks: `](target)`. */
export function linkTargets(markdown: string): string[] {
  return proseLines(markdown).flatMap((line) => [...line.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!));
}

export interface LinkedPage {
  /** The page's path from the repository's root. */
  path: string;
  text: string;
}

export interface Repository {
  /** A path from the repository's root as the page resolves it, or undefined when it leaves the repository. */
  resolve(fromPage: string, target: string): string | undefined;
  exists(path: string): boolean;
  /** A Markdown file's text. */
  read(path: string): string;
}

/** What is wrong with a page's links: one line per link that names no file, or no heading of its page. */
export function brokenLinks(page: LinkedPage, repository: Repository): string[] {
  return linkTargets(page.text).flatMap((target) => {
    if (/^[a-z][a-z+.-]*:/i.test(target)) return [];
    const hash = target.indexOf('#');
    const file = hash < 0 ? target : target.slice(0, hash);
    const fragment = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
    const path = file === '' ? page.path : repository.resolve(page.path, decodeURI(file));
    if (path === undefined || !repository.exists(path)) return [`${page.path} links ${target}: no such file`];
    if (fragment === undefined || !path.endsWith('.md')) return [];
    const text = path === page.path ? page.text : repository.read(path);
    return headingAnchors(text).has(fragment)
      ? []
      : [`${page.path} links ${target}: ${path} has no heading #${fragment}`];
  });
}
