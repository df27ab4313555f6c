// `npm run report` opens the certificate page for a person at a desktop, and never in CI, a pipe or a
// session without a display (bin/open-in-browser.ts decides; the command itself is the platform's).
import { describe, expect, test } from 'vitest';
import { desktopOpener } from '../bin/open-in-browser.ts';

const PAGE = '/home/me/reports/conformance.html';
const desk = { platform: 'linux' as NodeJS.Platform, env: { DISPLAY: ':0' }, isTTY: true };

describe('the certificate page is opened', () => {
  test('at a Linux desktop with an X or Wayland display, by xdg-open', () => {
    expect(desktopOpener(PAGE, desk)).toEqual({ command: 'xdg-open', args: [PAGE] });
    expect(desktopOpener(PAGE, { ...desk, env: { WAYLAND_DISPLAY: 'wayland-0' } })?.command).toBe('xdg-open');
  });

  test('on macOS by open, and on Windows by start', () => {
    expect(desktopOpener(PAGE, { ...desk, platform: 'darwin', env: {} })).toEqual({ command: 'open', args: [PAGE] });
    expect(desktopOpener('C:\\r\\conformance.html', { ...desk, platform: 'win32', env: {} })).toEqual({
      command: 'cmd',
      args: ['/c', 'start', '""', '"C:\\r\\conformance.html"'],
      verbatim: true,
    });
  });
});

describe('the certificate page is not opened', () => {
  test.for([
    { label: 'when the output is not a terminal', where: { ...desk, isTTY: false } },
    { label: 'in CI', where: { ...desk, env: { DISPLAY: ':0', CI: 'true' } } },
    { label: 'in CI on macOS', where: { ...desk, platform: 'darwin' as NodeJS.Platform, env: { CI: '1' } } },
    { label: 'on Linux without a display (ssh, a container)', where: { ...desk, env: {} } },
  ])('$label', ({ where }) => {
    expect(desktopOpener(PAGE, where)).toBeUndefined();
  });
});
