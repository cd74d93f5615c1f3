import { describe, expect, it } from 'vitest';
import type { ManagedResource } from '#core/managed-resource';
import { RESOURCE_UID, type KubernetesApplicationResourceSpec } from './schema';
import {
  PROPAGATED_SECRETS,
  desiredTemplate,
  propagatedSecret,
  propagatedSecretName,
  propagatedSecretsOf,
  refusal,
  secretNamespaceOf,
  secretsMadeWith,
  wantedSecretNames,
} from './submission';

const resource = (spec: KubernetesApplicationResourceSpec, name = 'wordpress-demo-deployment') =>
  ({ metadata: { name, namespace: 'complex', uid: 'uid-1' }, spec }) as unknown as ManagedResource<unknown, unknown>;
const deployment = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'wordpress', namespace: 'wordpress', labels: { app: 'wp' } },
};
const key = { cluster: 'c', apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'wordpress', name: 'wordpress' };

describe('desiredTemplate', () => {
  it('is the template as written, marked with the resource’s uid and the Secrets propagated with it', () => {
    const desired = desiredTemplate(
      resource({ template: { ...deployment, spec: { replicas: 1 } }, secrets: [{ name: 'sql' }, { name: 'sql' }] }),
    );
    expect(desired).toEqual({
      ...deployment,
      spec: { replicas: 1 },
      metadata: {
        ...deployment.metadata,
        annotations: { [RESOURCE_UID]: 'uid-1', [PROPAGATED_SECRETS]: 'wordpress-demo-deployment-sql' },
      },
    });
  });

  it('keeps the template’s own annotations, and lists no Secrets when there are none', () => {
    const template = { ...deployment, metadata: { ...deployment.metadata, annotations: { team: 'a' } } };
    expect(desiredTemplate(resource({ template })).metadata.annotations).toEqual({ team: 'a', [RESOURCE_UID]: 'uid-1' });
  });
});

describe('propagated Secrets', () => {
  it('are named <resource>-<secret>, once each, in the template’s namespace or default', () => {
    expect(propagatedSecretName('wordpress-demo-deployment', 'sql')).toBe('wordpress-demo-deployment-sql');
    expect(wantedSecretNames(resource({ template: deployment, secrets: [{ name: 'sql' }, { name: 'cache' }, { name: 'sql' }] }))).toEqual([
      'wordpress-demo-deployment-sql',
      'wordpress-demo-deployment-cache',
    ]);
    expect(secretNamespaceOf({ template: deployment })).toBe('wordpress');
    expect(secretNamespaceOf({ template: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'wordpress' } } })).toBe('default');
  });

  it('copy the source’s type and data as read, labelled and annotated with the resource’s uid', () => {
    const source = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'sql', namespace: 'complex', resourceVersion: '9', labels: { mine: 'x' } },
      type: 'connection.crossplane.io/v1alpha1',
      data: { password: 'c2VjcmV0' },
    };
    const mr = resource({ template: deployment, secrets: [{ name: 'sql' }] });
    expect(propagatedSecret(mr, 'sql', source, 'wordpress')).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: 'wordpress-demo-deployment-sql',
        namespace: 'wordpress',
        labels: { [RESOURCE_UID]: 'uid-1' },
        annotations: { [RESOURCE_UID]: 'uid-1' },
      },
      type: 'connection.crossplane.io/v1alpha1',
      data: { password: 'c2VjcmV0' },
    });
    expect(propagatedSecret(mr, 'empty', { metadata: { name: 'empty' } }, 'wordpress')).toMatchObject({ type: 'Opaque', data: {} });
  });

  it('are read back from the live template’s annotation', () => {
    expect(propagatedSecretsOf(undefined)).toEqual([]);
    expect(propagatedSecretsOf({ metadata: { annotations: { [PROPAGATED_SECRETS]: 'a-sql,a-cache' } } })).toEqual(['a-sql', 'a-cache']);
  });

  it('that may be ours are those listed now and those made with the live template, once each', () => {
    const mr = resource({ template: deployment, secrets: [{ name: 'sql' }] });
    const live = { metadata: { annotations: { [PROPAGATED_SECRETS]: 'wordpress-demo-deployment-sql,wordpress-demo-deployment-old' } } };
    expect(secretsMadeWith(mr, live)).toEqual(['wordpress-demo-deployment-sql', 'wordpress-demo-deployment-old']);
    expect(secretsMadeWith(mr, undefined)).toEqual(['wordpress-demo-deployment-sql']);
  });
});

describe('refusal', () => {
  it('lets the resource touch only what carries its own uid', () => {
    expect(
      refusal({ metadata: { annotations: { [RESOURCE_UID]: 'uid-1' } } }, 'uid-1', key, 'KubernetesCluster complex/c'),
    ).toBeUndefined();
  });

  it('names the object, the cluster and the other uid, and refuses', () => {
    expect(refusal({ metadata: { annotations: { [RESOURCE_UID]: 'uid-2' } } }, 'uid-1', key, 'KubernetesCluster complex/c')).toBe(
      `Deployment wordpress/wordpress already exists in KubernetesCluster complex/c and it belongs to another KubernetesApplicationResource (${RESOURCE_UID}: uid-2): refusing to touch it`,
    );
    expect(refusal({ metadata: { name: 'wordpress' } }, 'uid-1', key, 'KubernetesCluster complex/c')).toBe(
      `Deployment wordpress/wordpress already exists in KubernetesCluster complex/c and it was not made by a KubernetesApplicationResource (no ${RESOURCE_UID} annotation): refusing to touch it`,
    );
  });
});
