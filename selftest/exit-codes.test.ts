// The exit codes have one table (helpers/exit-codes.ts); the README's table is what CI authors read,
// so it must say the same, code for code and verdict for verdict.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { EXIT } from '../helpers/exit-codes.ts';
import { VERDICTS } from '../helpers/judging/states.ts';
import { projectRoot } from './run-node.ts';

const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');

test("the README's exit table gives each verdict the code the launcher ends with", () => {
  const rows = [...readme.matchAll(/^\| (\d+) \| (?:`([a-z-]+)` )?\| [^|]+\|$/gm)].map((row) => [
    Number(row[1]),
    row[2] ?? 'could-not-run',
  ]);
  expect(rows).toEqual([
    [VERDICTS.conformant.exitCode, 'conformant'],
    [VERDICTS['non-conformant'].exitCode, 'non-conformant'],
    [VERDICTS.incomplete.exitCode, 'incomplete'],
    [EXIT.cannotRun, 'could-not-run'],
    [VERDICTS['could-not-complete'].exitCode, 'could-not-complete'],
  ]);
});

test('the README names the codes of a run stopped by a signal', () => {
  expect(readme).toMatch(new RegExp(`exit ${EXIT.SIGINT}\\s+or ${EXIT.SIGTERM}\\b`));
});
