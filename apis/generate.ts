// `npm run gen`: writes deploy/crds/*.yaml from the TypeScript schemas. A unit test fails when
// the checked-in YAML and the schemas disagree, so the two can never drift apart.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renderCrds } from './render';

const dir = join(import.meta.dirname, '..', 'deploy', 'crds');
await mkdir(dir, { recursive: true });
const rendered = renderCrds();
for (const file of await readdir(dir)) if (!(file in rendered)) await rm(join(dir, file));
for (const [file, yaml] of Object.entries(rendered)) await writeFile(join(dir, file), yaml);
console.log(`wrote ${Object.keys(rendered).length} CRDs to ${dir}`);
