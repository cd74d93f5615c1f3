import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderCrds, renderRbac } from '#generate/render';

const dir = join(import.meta.dirname, '..', 'deploy', 'crds');

describe('generated CRDs', () => {
  it('match the TypeScript schemas (run `npm run gen` after changing a schema)', async () => {
    const rendered = renderCrds();
    expect((await readdir(dir)).sort()).toEqual(Object.keys(rendered).sort());
    for (const [file, yaml] of Object.entries(rendered)) expect(await readFile(join(dir, file), 'utf8'), file).toBe(yaml);
  });

  it('and the aggregated ClusterRoles match the CRD list (run `npm run gen` after adding a kind)', async () => {
    const rbacDir = join(import.meta.dirname, '..', 'deploy', 'rbac');
    const rendered = renderRbac();
    expect((await readdir(rbacDir)).sort()).toEqual(Object.keys(rendered).sort());
    for (const [file, yaml] of Object.entries(rendered)) expect(await readFile(join(rbacDir, file), 'utf8'), file).toBe(yaml);
  });

  it('contain only structural-schema keywords', () => {
    const forbidden = ['anyOf', 'const', 'patternProperties', '$id', 'oneOf', 'uniqueItems'];
    for (const yaml of Object.values(renderCrds())) {
      for (const word of forbidden) expect(yaml).not.toMatch(new RegExp(`^\\s*${word.replace('$', '\\$')}:`, 'm'));
    }
  });

  it('give an instance its state and private IP as columns of `kubectl get`, between Crossplane’s and AGE', () => {
    const crd = parse(renderCrds()['instances.ec2.aws.chronoplane.io.yaml']!) as {
      spec: { versions: { additionalPrinterColumns: { name: string; jsonPath: string }[] }[] };
    };
    const columns = crd.spec.versions[0]!.additionalPrinterColumns;
    expect(columns.map((c) => c.name)).toEqual(['READY', 'SYNCED', 'EXTERNAL-NAME', 'STATE', 'PRIVATE-IP', 'AGE']);
    expect(columns.find((c) => c.name === 'STATE')!.jsonPath).toBe('.status.atProvider.state');
    expect(columns.find((c) => c.name === 'PRIVATE-IP')!.jsonPath).toBe('.status.atProvider.privateIpAddress');
  });
});
