// A mistyped option is the first thing many new users meet: every command that reads options refuses
// it with its one could-not-run line (exit 3), and names the option that was likely meant when one is
// a slip away. An option nowhere near a known one gets no guess, only the pointer to --help.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runEntry } from './run-node.ts';

const typos = [
  { command: 'bin/conformance.ts', typed: ['--rules', 'AUTH-01'], meant: '--rule' },
  { command: 'bin/conformance.ts', typed: ['--basline', 'old.json'], meant: '--baseline' },
  { command: 'bin/drift.ts', typed: ['--quite'], meant: '--quiet' },
  { command: 'bin/sweep.ts', typed: ['--dryrun'], meant: '--dry-run' },
  { command: 'bin/report.ts', typed: ['--hlp'], meant: '--help' },
  { command: 'bin/reference.ts', typed: ['--prot', '8080'], meant: '--port' },
];

const run = (command: string, args: string[]) =>
  runEntry(command, args, { ZONES_REPORTS_DIR: mkdtempSync(join(tmpdir(), 'zc-typo-')) });

test.for(typos)(
  '$command $typed.0 is refused, naming $meant as the option likely meant',
  async ({ command, typed, meant }) => {
    const refused = await run(command, typed);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`Unknown option '${typed[0]}'; did you mean ${meant}?`);
    expect(refused.stderr.trim().split('\n')[0]).toMatch(/cannot (run|build the report): |^reference: /);
  },
);

test('an option near none is refused with no guess', async () => {
  const refused = await run('bin/conformance.ts', ['--colour']);
  expect(refused.code).toBe(3);
  expect(refused.stderr.trim()).toMatch(/Unknown option '--colour' \(see --help\)$/);
});
