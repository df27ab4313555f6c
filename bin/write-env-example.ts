// `npm run env-example`: write .env.example and the shop profile's JSON schema from the settings list
// in helpers/settings.ts (and the profile's table of keys in helpers/shop-profile.ts).
import { writeFileSync } from 'node:fs';
import { renderEnvExample } from '../helpers/settings.ts';
import { profileSchema } from '../helpers/shop-profile.ts';

writeFileSync(new URL('../.env.example', import.meta.url), renderEnvExample());
console.log('.env.example written');
writeFileSync(
  new URL('../profiles/shop-profile.schema.json', import.meta.url),
  `${JSON.stringify(profileSchema(), null, 2)}\n`,
);
console.log('profiles/shop-profile.schema.json written');
