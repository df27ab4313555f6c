// Debian's Chromium for the self-tests that look at a report as its reader does: opened from disk,
// with nothing fetched from anywhere but the file. Never a browser download (.ci/run installs the
// package). Without it those tests are skipped on a developer's machine, and say so on stderr, since a
// skipped describe block is one number in vitest's summary; in CI (CI set) they run and fail at the
// launch, naming the missing path, so that a pipeline cannot go green without having looked.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Whether the Chromium tests are left out here; `what` names them in the one line that says so. */
export function skipChromium(what: string): boolean {
  if (existsSync(CHROMIUM) || (process.env.CI ?? '') !== '') return false;
  console.warn(`SKIPPED: ${what}: no ${CHROMIUM} (apt-get install -y chromium, as .ci/run does)`);
  return true;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}

/**
 * A page at a screen's size in a context of its own, that may fetch nothing but files, with every
 * console message and page error it gives; its waits are generous (a loaded 2-core machine can take
 * many seconds to lay out a report of a few MB), and the tests' own conditions decide.
 */
export async function openOffline(
  browser: Browser,
  url: string,
  viewport: { width: number; height: number },
): Promise<{ page: Page; console: string[] }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(120_000);
  const console: string[] = [];
  page.on('console', (message) => console.push(`${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => console.push(`pageerror: ${error.message}`));
  await page.route(/^(?!file:)/, (route) => route.abort());
  await page.goto(url);
  return { page, console };
}

/** A file's address for the browser. */
export const fileUrl = (path: string) => pathToFileURL(path).href;
