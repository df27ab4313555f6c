// A run killed with SIGINT or SIGTERM partway through stops its tests, deletes every zone it made
// (the ledger sweep), and exits with the signal's code: nothing of its own stays on the shop. Here the
// launcher alone gets SIGTERM, as from a `kill` of its pid, and its own exit code is seen. SIGINT to the
// launcher alone is terminal-interrupt's (one Ctrl-C relayed twice); either signal to the whole group
// of `npm run conformance` is one-exit-code's, whose runs check every output and the clean-up too.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { bookingHooksForReference, settingsForStyle } from '../bin/reference-settings.ts';
import { startReference } from '../reference/server.ts';
import { startEntry } from './run-node.ts';
import { suiteZonesOn, untilCreated } from './support/run-progress.ts';

test('a run stopped by SIGTERM leaves no zone of its own behind', async () => {
  const signal = 'SIGTERM';
  const code = 143;
  const reference = await startReference({ token: 'tok-interrupted' });
  try {
    const dir = mkdtempSync(join(tmpdir(), 'zc-killed-'));
    const env = {
      ...settingsForStyle(reference.style, reference.url, reference.token),
      ...bookingHooksForReference(),
      ZONES_REPORTS_DIR: dir,
    };
    const run = startEntry('bin/conformance.ts', [], env);
    const created = await untilCreated(run, dir, 4);
    run.child.kill(signal);
    const ended = await run.done;

    expect(created, 'the run had made zones before it was stopped').toBeGreaterThanOrEqual(4);
    expect(ended.code).toBe(code);
    expect(ended.stderr).toContain(`${signal}: stopping the tests, then deleting this run's zones`);
    const report = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8'));
    // A stop is not a defect of the suite: the reports say what the process did, and with which exit
    // code, first thing under the verdict, and every output names that one code.
    expect(report.suiteErrors.join('\n')).not.toContain(signal);
    expect(report.stopped).toEqual({ signal, exitCode: code });
    expect(report.exitCode).toBe(code);
    const stopped = `The run was stopped by ${signal} before every test had run; exit code ${code}.`;
    const named = `exit code ${code}, stopped by ${signal}`;
    const md = readFileSync(join(dir, 'conformance.md'), 'utf8');
    expect(md).toContain(`**${stopped}**`);
    expect(md).toContain(`(${named}) |`);
    const page = readFileSync(join(dir, 'conformance.html'), 'utf8');
    expect(page).toContain(`<p class="alert">${stopped}</p>`);
    expect(page).toContain(`E${named.slice(1)}.`);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain(`(${named})`);
    expect(readFileSync(join(dir, 'junit.xml'), 'utf8')).toContain(`<property name="exit code" value="${code}"/>`);
    expect(ended.stdout).toContain(`(${named})`);
    expect(ended.stdout).not.toMatch(/SUITE ERROR/);
    expect(report.cleanup.leftBehind).toEqual([]);
    expect(await suiteZonesOn(reference)).toEqual([]);
  } finally {
    await reference.close();
  }
});
