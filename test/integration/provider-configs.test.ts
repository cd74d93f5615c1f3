// Credentials scoped like Crossplane v2: a managed resource names `providerConfigRef {kind,
// name}`; a namespaced ProviderConfig serves only its own namespace, a ClusterProviderConfig the
// namespaces its namespaceSelector matches. A refused use is Synced=False with a message that
// says why, and nothing is made at EC2. (As cluster admin; the tenants' own view, through
// impersonation, is test/integration/tenancy tests'.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControlPlane, condition, eventually, vpcManifest, type VpcObject } from './harness';
import { runKubectl } from './kubectl';
import { AWS_CREDENTIALS_SECRET } from '#stack/cluster-bootstrap';

let plane: ControlPlane;
/** Another tenant's namespace, where a ProviderConfig lives that the test's namespace may not use. */
let elsewhere: string;
/** Labels that only this file's namespace carries, so the selectors below match nothing else. */
let teamLabel: string;
const clusterConfigs: string[] = [];

beforeAll(async () => {
  plane = await ControlPlane.start('providerconfigs');
  elsewhere = `${plane.namespace}-other`;
  teamLabel = `a-${plane.namespace}`;
  await runKubectl(['create', 'namespace', elsewhere]);
  await runKubectl(['label', 'namespace', plane.namespace, `team=${teamLabel}`]);
});
afterAll(async () => {
  await plane?.stop();
  if (clusterConfigs.length > 0) {
    await runKubectl(['delete', 'clusterproviderconfigs.aws.chronoplane.io', '--ignore-not-found', ...clusterConfigs]);
  }
  if (elsewhere) await runKubectl(['delete', 'namespace', elsewhere, '--ignore-not-found', '--wait=false']);
});

const motoCredentials = '[default]\naws_access_key_id = testing\naws_secret_access_key = testing\n';

/** A namespaced ProviderConfig for moto, its credentials Secret beside it. */
async function namespacedProviderConfig(namespace: string, name: string): Promise<void> {
  const manifest = {
    apiVersion: 'v1',
    kind: 'List',
    items: [
      { apiVersion: 'v1', kind: 'Secret', metadata: { namespace, name: `${name}-aws` }, stringData: { credentials: motoCredentials } },
      {
        apiVersion: 'aws.chronoplane.io/v1alpha1',
        kind: 'ProviderConfig',
        metadata: { namespace, name },
        spec: {
          credentials: { source: 'Secret', secretRef: { namespace, name: `${name}-aws`, key: 'credentials' } },
          endpoint: { url: plane.ec2Endpoint },
        },
      },
    ],
  };
  await runKubectl(['apply', '-f', '-'], JSON.stringify(manifest));
}

/** A ClusterProviderConfig for moto that only namespaces labelled team=`team` may use. */
async function clusterProviderConfigFor(team: string): Promise<string> {
  const name = `${plane.namespace}-${team.startsWith('a-') ? 'a' : 'b'}`;
  clusterConfigs.push(name);
  const manifest = {
    apiVersion: 'aws.chronoplane.io/v1alpha1',
    kind: 'ClusterProviderConfig',
    metadata: { name },
    spec: {
      credentials: { source: 'Secret', secretRef: { ...AWS_CREDENTIALS_SECRET } },
      endpoint: { url: plane.ec2Endpoint },
      namespaceSelector: { matchLabels: { team } },
    },
  };
  await runKubectl(['apply', '-f', '-'], JSON.stringify(manifest));
  return name;
}

const using = (kind: 'ProviderConfig' | 'ClusterProviderConfig', name: string) => ({ spec: { providerConfigRef: { kind, name } } });

/** Waits for Synced=False and returns the object; it must not be Ready. */
async function refused(name: string): Promise<VpcObject> {
  const vpc = await eventually(async () => {
    const v = await plane.getVpc(name);
    return condition(v, 'Synced')?.status === 'False' && v;
  }, `${name} Synced=False`);
  expect(condition(vpc, 'Ready')?.status).not.toBe('True');
  expect(vpc.metadata.annotations?.['crossplane.io/external-name']).toBeUndefined();
  return vpc;
}

describe('providerConfigRef', () => {
  it('defaults to ClusterProviderConfig "default"', async () => {
    await plane.apply(vpcManifest('defaulted', { cidrBlock: '10.150.0.0/16' }));
    const vpc = await plane.ready('vpc', 'defaulted');
    expect(vpc.spec.providerConfigRef).toEqual({ kind: 'ClusterProviderConfig', name: 'default' });
  });

  it('uses a namespaced ProviderConfig of the object’s own namespace', async () => {
    await namespacedProviderConfig(plane.namespace, 'own');
    await plane.apply(vpcManifest('own-config', { cidrBlock: '10.151.0.0/16' }, using('ProviderConfig', 'own')));
    const vpc = await plane.ready('vpc', 'own-config');
    const [made] = await plane.vpcsTaggedWithUid(vpc.metadata.uid);
    const tags = Object.fromEntries((made?.Tags ?? []).map((t) => [t.Key, t.Value]));
    expect(tags).toMatchObject({ 'crossplane-providerconfig': 'own', 'crossplane-providerconfig-kind': 'ProviderConfig' });
  });

  it('refuses a ProviderConfig that exists only in another namespace: not found in its own', async () => {
    await namespacedProviderConfig(elsewhere, 'theirs');
    await plane.apply(vpcManifest('their-config', { cidrBlock: '10.152.0.0/16' }, using('ProviderConfig', 'theirs')));
    const vpc = await refused('their-config');
    expect(condition(vpc, 'Synced')!.message).toContain(`cannot get ProviderConfig "theirs": not found in namespace ${plane.namespace}`);
    expect(await plane.vpcsTaggedWithUid(vpc.metadata.uid)).toEqual([]);
  });

  it('lets a ClusterProviderConfig serve the namespaces its selector matches, and refuses the others clearly, with nothing made at EC2', async () => {
    const forTeamA = await clusterProviderConfigFor(teamLabel);
    const forTeamB = await clusterProviderConfigFor(`b-${plane.namespace}`);

    await plane.apply(vpcManifest('selected', { cidrBlock: '10.153.0.0/16' }, using('ClusterProviderConfig', forTeamA)));
    await plane.apply(vpcManifest('not-selected', { cidrBlock: '10.154.0.0/16' }, using('ClusterProviderConfig', forTeamB)));

    await plane.ready('vpc', 'selected');
    const vpc = await refused('not-selected');
    expect(condition(vpc, 'Synced')!.message).toContain(
      `ClusterProviderConfig ${forTeamB} may not be used from namespace ${plane.namespace}: the namespace's labels do not match its namespaceSelector (team=b-${plane.namespace})`,
    );
    expect(await plane.vpcsTaggedWithUid(vpc.metadata.uid)).toEqual([]);
  });
});
