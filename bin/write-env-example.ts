// `npm run env-example`: write .env.example and the shop profile's JSON schema from helpers/settings.ts.
import { writeFileSync } from 'node:fs';
import { inProject } from '../helpers/project-root.ts';
import { renderEnvExample } from '../helpers/settings.ts';
import { profileSchema } from '../helpers/shop-profile.ts';

writeFileSync(inProject('.env.example'), renderEnvExample());
console.log('.env.example written');
writeFileSync(inProject('profiles/shop-profile.schema.json'), `${JSON.stringify(profileSchema(), null, 2)}\n`);
console.log('profiles/shop-profile.schema.json written');
