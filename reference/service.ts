import type { Fault } from './faults.ts';
import { createIdSource, type IdSource } from './ids.ts';
import type { HouseStyle } from './styles.ts';
import { ZoneStore } from './zone-store.ts';

/** Everything one server instance needs to answer: its own store, its spelling and its one defect. */
export interface ZoneService {
  store: ZoneStore;
  style: HouseStyle;
  fault: Fault | undefined;
  nextId: IdSource;
}

export function createZoneService(style: HouseStyle, fault: Fault | undefined): ZoneService {
  return { store: new ZoneStore(), style, fault, nextId: createIdSource(style) };
}

export const draftStatus = (style: HouseStyle): string => style.statuses[0] ?? 'draft';

export const now = (): string => new Date().toISOString();
