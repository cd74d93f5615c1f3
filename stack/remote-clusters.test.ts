// What the stacks register for workloads: remote clusters as KubernetesClusters with their own
// connection Secrets, and the two that examples/workload/ expects in namespace `complex`.
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { KubernetesClusterSpec } from '#providers/kubernetes/workload/cluster';
import { EXAMPLES_WORKLOAD_NAMESPACE, exampleKubernetesClusters, kubernetesClusterManifests } from './remote-clusters';
import { repoRoot } from './paths';

const remotes = [
  { name: 'remote-1', kubeconfig: 'apiVersion: v1\nkind: Config\n# remote-1\n' },
  { name: 'remote-2', kubeconfig: 'apiVersion: v1\nkind: Config\n# remote-2\n' },
];

type Manifest = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [k: string]: any;
};

describe('registering remote clusters as KubernetesClusters', () => {
  it('creates the namespace, then per cluster its kubeconfig Secret and a KubernetesCluster that names it', () => {
    const manifests = kubernetesClusterManifests('it-workloads', [
      { name: 'east', labels: { region: 'east' }, cluster: remotes[0]! },
      { name: 'west', labels: { region: 'west' }, cluster: remotes[1]! },
    ]) as Manifest[];
    expect(manifests.map((m) => `${m.kind} ${m.metadata.namespace ?? ''}/${m.metadata.name}`)).toEqual([
      'Namespace /it-workloads',
      'Secret it-workloads/east-kubeconfig',
      'KubernetesCluster it-workloads/east',
      'Secret it-workloads/west-kubeconfig',
      'KubernetesCluster it-workloads/west',
    ]);
    const [, secret, cluster] = manifests;
    expect(Buffer.from(secret!.data.kubeconfig, 'base64').toString()).toBe(remotes[0]!.kubeconfig);
    expect(cluster).toMatchObject({
      apiVersion: 'compute.crossplane.io/v1alpha1',
      metadata: { labels: { region: 'east' } },
      spec: { writeConnectionSecretToRef: { name: 'east-kubeconfig' } },
    });
    expect(Value.Check(KubernetesClusterSpec, cluster!.spec)).toBe(true);
  });

  it("registers remote-1 as the cluster examples/workload/ selects and remote-2 as one it does not, in the examples' namespace", async () => {
    const examples = exampleKubernetesClusters(remotes);
    expect(examples.map((e) => [e.name, e.cluster.name, e.labels])).toEqual([
      ['wordpress-demo-cluster', 'remote-1', { app: 'wordpress-demo' }],
      ['other-cluster', 'remote-2', { app: 'other' }],
    ]);
    expect(exampleKubernetesClusters(remotes.slice(0, 1)).map((e) => e.name)).toEqual(['wordpress-demo-cluster']);

    const dir = join(repoRoot, 'examples', 'workload');
    const documents: Manifest[] = [];
    for (const file of (await readdir(dir)).filter((f) => f.endsWith('.yaml'))) {
      for (const document of parseAllDocuments(await readFile(join(dir, file), 'utf8'))) documents.push(document.toJS());
    }
    const application = documents.find((d) => d.kind === 'KubernetesApplication')!;
    expect(application.metadata.namespace).toBe(EXAMPLES_WORKLOAD_NAMESPACE);
    const selected = examples.filter((e) =>
      Object.entries(application.spec.clusterSelector.matchLabels as Record<string, string>).every(([k, v]) => e.labels[k] === v),
    );
    expect(selected.map((e) => e.name)).toEqual(['wordpress-demo-cluster']);

    // Every Secret a template propagates is in the folder, in the application's namespace.
    const wanted = (application.spec.resourceTemplates as { spec: { secrets?: { name: string }[] } }[]).flatMap(
      (t) => t.spec.secrets ?? [],
    );
    expect(wanted).toEqual([{ name: 'sql' }]);
    const secret = documents.find((d) => d.kind === 'Secret' && d.metadata.name === 'sql');
    expect(secret?.metadata.namespace).toBe(EXAMPLES_WORKLOAD_NAMESPACE);
    // The KubernetesClusters come from `npm run up`, not from the folder.
    expect(documents.filter((d) => d.kind === 'KubernetesCluster' || d.kind === 'Namespace')).toEqual([]);
  });
});
