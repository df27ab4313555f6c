// Ids live as text from birth to wire: a JS number would silently round the big-ids style, and path
// ids must match exactly what the shop once sent.
import { randomInt, randomUUID } from 'node:crypto';
import { LosslessNumber } from 'lossless-json';
import type { HouseStyle } from './styles.ts';
import type { ZoneStore } from './zone-store.ts';

export type IdSource = () => string;

// Every id stays odd, and odd integers between 2^53 and 2^54 have no exact double: a client that
// parses them as JS numbers is caught on its first round trip.
const FIRST_UNSAFE_ODD = 9007199254740993n;
const BIG_ID_STEP = 2n;

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

function randomToken(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += ALPHABET[randomInt(ALPHABET.length)];
  return text;
}

/**
 * The highest numeric id a store holds, exactly, and 0n for none: a data file written in another style may hold
 * ids that are not numbers, or numbers past 2^53, which a JS number would round onto an id already given.
 */
function highestHeld(store: ZoneStore): bigint {
  let highest = 0n;
  for (const zone of store.all()) if (/^\d+$/.test(zone.id) && BigInt(zone.id) > highest) highest = BigInt(zone.id);
  return highest;
}

const larger = (a: bigint, b: bigint) => (a > b ? a : b);

export function createIdSource(style: HouseStyle, store: ZoneStore): IdSource {
  switch (style.idStyle) {
    case 'max-plus-one':
      // What popular fake-REST servers do: the highest id held plus one, so deleting the newest zone
      // hands its id to the next create.
      return () => String(highestHeld(store) + 1n);
    case 'number': {
      // A random start keeps a suite from passing by assuming ids begin at 1. Counted on from the
      // highest id a kept store holds, chosen at the first create, once a data file has been read.
      let next: bigint | undefined;
      return () => {
        next ??= larger(BigInt(1000 + randomInt(9000)), highestHeld(store) + 1n);
        return String(next++);
      };
    }
    case 'big-number': {
      let next: bigint | undefined;
      return () => {
        next ??= larger(FIRST_UNSAFE_ODD + 2n * BigInt(randomInt(500)), highestHeld(store) + BIG_ID_STEP);
        const id = next;
        next += BIG_ID_STEP;
        return id.toString();
      };
    }
    case 'string': {
      if (style.stringIdShape === 'uuid') return () => randomUUID();
      const issued = new Set<string>();
      return () => {
        let id: string;
        do id = `zn_${randomToken(6)}`;
        while (issued.has(id) || store.find(id));
        issued.add(id);
        return id;
      };
    }
  }
}

/** The JSON value an id is written as: numeric styles go out as unquoted digits, exactly. */
export function idForJson(style: HouseStyle, id: string): string | LosslessNumber {
  return style.idStyle === 'string' ? id : new LosslessNumber(id);
}
