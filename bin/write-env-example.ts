// `npm run env-example`: write .env.example from the settings list in helpers/settings.ts.
import { writeFileSync } from 'node:fs';
import { renderEnvExample } from '../helpers/settings.ts';

writeFileSync(new URL('../.env.example', import.meta.url), renderEnvExample());
console.log('.env.example written');
