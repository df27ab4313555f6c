// Zones a run leaves on a shared shop wait for a person: said in the console even under --quiet and first in
// every report, each with exactly what to run to delete it.
import type { LeftZone } from '../ownership/cleanup-record.ts';
import { code } from './markdown-code.ts';

/** The zones that share one way out, in the order the run left them. */
type LeftGroup = { removeWith: LeftZone['removeWith']; zones: LeftZone[] };

/** What to do about a group, in words: the command, a person's look, or nothing at all. */
function wayOut({ removeWith, zones }: LeftGroup): { text: string; command?: string } {
  const them = zones.length === 1 ? 'it' : 'them';
  // The reason says what kept a zone (a booking history, a shop that refused); the command is the rest.
  if (typeof removeWith === 'string') return { text: `delete ${them} with the run's settings:`, command: removeWith };
  if (removeWith === null)
    return {
      text: `no sweep deletes ${them}: ${zones.length === 1 ? 'it is' : 'they are'} not in the ledger, so not provably this run's`,
    };
  return { text: `the embedded reference, stopped with the run, took ${them} along` };
}

/** The zones left, grouped by what removes them, each group with its way out. */
export function leftoverGroups(left: readonly LeftZone[]): (LeftGroup & { text: string; command?: string })[] {
  const groups = new Map<LeftZone['removeWith'], LeftZone[]>();
  for (const zone of left) groups.set(zone.removeWith, [...(groups.get(zone.removeWith) ?? []), zone]);
  return [...groups].map(([removeWith, zones]) => ({ removeWith, zones, ...wayOut({ removeWith, zones }) }));
}

const described = (zone: LeftZone) => `${zone.id}${zone.name === undefined ? '' : ` "${zone.name}"`}: ${zone.reason}`;

export const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** The console's lines, the same with and without --quiet; none when nothing is left. */
export function leftoverLines(left: readonly LeftZone[]): string[] {
  if (left.length === 0) return [];
  const lines = [`LEFT BEHIND: ${left.length} zone(s) of this run are still on the shop`];
  for (const { zones, text, command } of leftoverGroups(left)) {
    lines.push(...zones.map((zone) => `  ${described(zone)}`), `  ${text}`);
    if (command !== undefined) lines.push(`    ${command}`);
  }
  return lines;
}

/** conformance.md's lines, right under its title; none when nothing is left. */
export function leftoverMarkdown(left: readonly LeftZone[]): string[] {
  if (left.length === 0) return [];
  const lines = [`**Zones left behind: ${left.length}.** This run could not delete them.`, ''];
  for (const { zones, text, command } of leftoverGroups(left)) {
    for (const { id, name, reason } of zones)
      lines.push(`- ${code(id)}${name === undefined ? '' : ` ${code(name)}`}: ${reason.replaceAll('\n', ' ')}`);
    lines.push('', `${capitalised(text)}${command === undefined ? '' : ` ${code(command)}`}`, '');
  }
  return lines;
}

/** junit.xml's suite properties, first among them; none when nothing is left. */
export function leftoverProperties(left: readonly LeftZone[]): [string, string][] {
  return left.map((zone) => {
    const { text, command } = wayOut({ removeWith: zone.removeWith, zones: [zone] });
    return [`left behind ${zone.id}`, `${described(zone)}; ${text}${command === undefined ? '' : ` ${command}`}`];
  });
}
