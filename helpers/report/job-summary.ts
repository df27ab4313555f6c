// summary.md: conformance.md sized for a CI job summary. GitHub drops a step summary past 1024 KiB
// whole ("upload aborted"), and GitLab, which has none, cuts a job log at 4 MiB by default; cut by
// bytes (`head -c`), a long certificate lost what came late, the zones left behind among it. Here the
// verdict, the zones left behind and every rule's status (failures included) always come first and
// whole; what each failed test sent follows while it fits, cut between blocks, with a line that says
// so and where the rest is.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TargetConfig } from '../config.ts';
import { Secrets } from '../evidence/secrets.ts';
import { type ConformanceReport, markdownParts } from './conformance-report.ts';

/** Half of GitHub's limit: room for what else a job writes to its summary, and far below GitLab's. */
export const SUMMARY_MAX_BYTES = 512 * 1024;

/** The bytes a run of lines adds to the summary, each with the newline that ends it. */
const bytesOf = (lines: readonly string[]) => lines.reduce((sum, line) => sum + Buffer.byteLength(line, 'utf8') + 1, 0);

export function renderJobSummary(report: ConformanceReport, maxBytes = SUMMARY_MAX_BYTES): string {
  const { head, detail } = markdownParts(report);
  const lines = [...head];
  const cutNote = (left: number) => [
    '',
    `*The job summary stops here, at ${Math.round(maxBytes / 1024)} KiB: ${left} more section(s) of detail are in conformance.md, in the reports artifact.*`,
    '',
  ];
  // The note's own size is kept free from the start, so that adding it never passes the limit. The head
  // is never cut: a summary without the verdict, the failures or the zones left behind has no point.
  const budget = maxBytes - bytesOf(cutNote(detail.length));
  let used = bytesOf(head);
  for (const [index, block] of detail.entries()) {
    used += bytesOf(block);
    if (used > budget) {
      lines.push(...cutNote(detail.length - index));
      break;
    }
    lines.push(...block);
  }
  return `${lines.join('\n')}\n`;
}

/** reports/summary.md, masked as conformance.md is; written after it, into the folder it made. */
export function writeJobSummary(report: ConformanceReport, config: TargetConfig): string {
  const path = join(config.reportsDir, 'summary.md');
  writeFileSync(path, new Secrets(config).mask(renderJobSummary(report)));
  return path;
}
