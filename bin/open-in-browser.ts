// Opening the certificate page for a person at a desktop, and for nobody else: a CI job, a pipe or a
// server over ssh has no one to look, and a browser started there would hang around or fail noisily.

/** Only when the output is a terminal, no CI variable is set, and the platform has an opener (on Linux, with a display). */
export function desktopOpener(
  path: string,
  where: { platform: NodeJS.Platform; env: Record<string, string | undefined>; isTTY: boolean } = {
    platform: process.platform,
    env: process.env,
    isTTY: process.stdout.isTTY === true,
  },
): { command: string; args: string[]; verbatim?: boolean } | undefined {
  const { platform, env, isTTY } = where;
  if (!isTTY || (env.CI !== undefined && env.CI !== '' && env.CI !== 'false')) return undefined;
  if (platform === 'darwin') return { command: 'open', args: [path] };
  // `start` is a command of cmd itself; its first quoted argument is a window title, hence the "". Verbatim:
  // the arguments go to cmd as written, quotes included, since cmd does not read C-style quoting.
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', `"${path}"`], verbatim: true };
  const display = env.DISPLAY || env.WAYLAND_DISPLAY;
  return display ? { command: 'xdg-open', args: [path] } : undefined;
}
