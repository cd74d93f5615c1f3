import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderCrds } from './render';

const dir = join(import.meta.dirname, '..', 'deploy', 'crds');

describe('generated CRDs', () => {
  it('match the TypeScript schemas (run `npm run gen` after changing a schema)', async () => {
    const rendered = renderCrds();
    expect((await readdir(dir)).sort()).toEqual(Object.keys(rendered).sort());
    for (const [file, yaml] of Object.entries(rendered)) expect(await readFile(join(dir, file), 'utf8'), file).toBe(yaml);
  });

  it('contain only structural-schema keywords', () => {
    const forbidden = ['anyOf', 'const', 'patternProperties', '$id', 'oneOf', 'uniqueItems'];
    for (const yaml of Object.values(renderCrds())) {
      for (const word of forbidden) expect(yaml).not.toMatch(new RegExp(`^\\s*${word.replace('$', '\\$')}:`, 'm'));
    }
  });
});
