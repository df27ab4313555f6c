// The test files of a run whose targets share workers (the gallery): each names its own target and
// nothing more, so a target's settings and access token never reach the disk, and each test's outcome
// goes to the target its file named. That the suites then check the right target is the gallery's
// proof: its 66 targets go through 4 workers, and every mutant must fail exactly its own rules.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { TestCase } from 'vitest/node';
import { readTargetConfig } from '../helpers/config.ts';
import { writeTargetFiles } from './gallery/target-files.ts';
import { projectRoot } from './run-node.ts';

const TOKEN = 'shpat_target_files_0123456789';
const target = (name: string, port: number) => ({
  name,
  config: readTargetConfig({ ZONES_BASE_URL: `http://127.0.0.1:${port}`, ZONES_ACCESS_TOKEN: TOKEN }),
  ledgerPath: `/tmp/ledger-${name}.jsonl`,
  runId: `20260101t000000-${port}`,
});
const targets = [target('style-default', 4001), target('mutant-"quoted"', 4002)];
const testIn = (dir: string, file: string) => ({ module: { moduleId: join(dir, file) } }) as TestCase;

test('each file names one target and loads the suites, and no file holds a setting or the token', () => {
  const files = writeTargetFiles(targets, projectRoot, ['suites/path.test.ts']);
  try {
    const written = readdirSync(files.dir).sort();
    expect(written).toHaveLength(2);
    for (const [index, file] of written.entries()) {
      const text = readFileSync(join(files.dir, file), 'utf8');
      expect(text).toContain(`certifyThisFileFor(${JSON.stringify(targets[index]!.name)})`);
      expect(text).toMatch(/vi\.resetModules\(\);\nawait import\(".*\/suites\/path\.test\.ts"\);/);
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain('127.0.0.1');
      expect(files.targetOf(testIn(files.dir, file))).toBe(targets[index]!.name);
    }
    expect(files.provided['mutant-"quoted"']?.config.baseUrl).toBe('http://127.0.0.1:4002');
  } finally {
    files.remove();
  }
  expect(existsSync(files.dir)).toBe(false);
});

test('an outcome from a file the run did not write is a suite defect, never a target guessed', () => {
  const files = writeTargetFiles(targets, projectRoot, ['suites/path.test.ts']);
  try {
    expect(() => files.targetOf(testIn('/elsewhere', '000.target.test.ts'))).toThrow(/suite defect/);
  } finally {
    files.remove();
  }
});
