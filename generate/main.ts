// `npm run gen`: writes deploy/crds/*.yaml from the TypeScript schemas, deploy/rbac/ from the
// CRD list, and the Helm chart's copies and RBAC rules. A unit test fails when the checked-in
// YAML and the schemas disagree, so the two can never drift apart.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chartDir, renderChartDirectories, renderChartRules } from './chart-files';
import { renderAdmission, renderCrds, renderRbac } from './render';

const dir = join(import.meta.dirname, '..', 'deploy', 'crds');
await mkdir(dir, { recursive: true });
const rendered = renderCrds();
for (const file of await readdir(dir)) if (!(file in rendered)) await rm(join(dir, file));
for (const [file, yaml] of Object.entries(rendered)) await writeFile(join(dir, file), yaml);
console.log(`wrote ${Object.keys(rendered).length} CRDs to ${dir}`);

// The tenants' aggregated ClusterRoles: one file, rewritten whole.
const rbacDir = join(import.meta.dirname, '..', 'deploy', 'rbac');
await mkdir(rbacDir, { recursive: true });
for (const [file, yaml] of Object.entries(renderRbac())) await writeFile(join(rbacDir, file), yaml);
console.log(`wrote the aggregated ClusterRoles to ${rbacDir}`);

// The ValidatingAdmissionPolicies, applied right after the CRDs.
const admissionDir = join(import.meta.dirname, '..', 'deploy', 'admission');
await mkdir(admissionDir, { recursive: true });
const policies = renderAdmission();
for (const file of await readdir(admissionDir)) if (!(file in policies)) await rm(join(admissionDir, file));
for (const [file, yaml] of Object.entries(policies)) await writeFile(join(admissionDir, file), yaml);
console.log(`wrote the admission policies to ${admissionDir}`);

// The Helm chart: the same CRDs and admission policies, and the rules of its ClusterRole and
// leader-election Role.
for (const [sub, files] of Object.entries(renderChartDirectories())) {
  const chartSubDir = join(chartDir, sub);
  await mkdir(chartSubDir, { recursive: true });
  for (const file of await readdir(chartSubDir)) if (!(file in files)) await rm(join(chartSubDir, file));
  for (const [file, yaml] of Object.entries(files)) await writeFile(join(chartSubDir, file), yaml);
}
for (const [file, yaml] of Object.entries(renderChartRules())) await writeFile(join(chartDir, file), yaml);
console.log(`wrote the chart's CRDs, admission policies and RBAC rules to ${chartDir}`);
