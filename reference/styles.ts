// Real shops differ in how they spell the same interface. Each style is one plausible spelling, so the
// suite can be proven against more than the one it was written with.

export type IdStyle = 'number' | 'string' | 'big-number';

export interface HouseStyle {
  name: string;
  authHeader: string;
  authScheme: string;
  statuses: string[];
  statusParam: string;
  envelope: 'wrapped' | 'bare';
  idField: string;
  idStyle: IdStyle;
  /** Only for string ids: opaque 'zn_…' tokens (the default) or UUIDs. */
  stringIdShape?: 'prefixed' | 'uuid';
}

export const houseStyles: Record<string, HouseStyle> = {
  default: {
    name: 'default',
    authHeader: 'X-Shopify-Access-Token',
    authScheme: '',
    statuses: ['draft', 'published'],
    statusParam: 'status',
    envelope: 'wrapped',
    idField: 'id',
    idStyle: 'number',
  },
  'bearer-bare': {
    name: 'bearer-bare',
    authHeader: 'Authorization',
    authScheme: 'Bearer',
    statuses: ['draft', 'active', 'archived'],
    statusParam: 'publish_status',
    envelope: 'bare',
    idField: 'id',
    idStyle: 'string',
  },
  'big-ids': {
    name: 'big-ids',
    authHeader: 'X-Api-Key',
    authScheme: '',
    statuses: ['draft', 'live'],
    statusParam: 'state',
    envelope: 'wrapped',
    idField: 'zone_id',
    idStyle: 'big-number',
  },
  'token-scheme': {
    name: 'token-scheme',
    authHeader: 'Authorization',
    authScheme: 'Token',
    statuses: ['draft', 'visible', 'hidden'],
    statusParam: 'filter_status',
    envelope: 'bare',
    idField: 'uuid',
    idStyle: 'string',
    stringIdShape: 'uuid',
  },
};

export function resolveStyle(style: string | HouseStyle | undefined): HouseStyle {
  if (style === undefined) return houseStyles.default!;
  if (typeof style !== 'string') return style;
  const found = Object.hasOwn(houseStyles, style) ? houseStyles[style] : undefined;
  if (!found) throw new Error(`unknown style "${style}"; known styles: ${Object.keys(houseStyles).join(', ')}`);
  return found;
}
