// What a KubernetesApplicationResource puts in its cluster, and what it refuses to touch there.
// Everything it makes carries its uid (RESOURCE_UID); the templated object also lists the
// Secrets propagated with it (PROPAGATED_SECRETS), so that those no longer in `secrets` are
// found and removed without listing the cluster's Secrets. Pure.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ControlObjectKey } from '#core/external-client';
import type { ManagedResource } from '#core/managed-resource';
import type { TargetKey } from '../../target-watches';
import { describeTarget, type DesiredObject } from '../../remote/target';
import { RESOURCE_UID, type KubernetesApplicationResourceSpec } from './schema';

/** On the templated object: the names of the Secrets propagated with it, comma-separated. */
export const PROPAGATED_SECRETS = 'kubernetesapplicationresource.workload.crossplane.io/secrets';

/** The engine's ManagedResource knows forProvider; this kind's spec is upstream's own. */
export const specOf = (mr: ManagedResource<unknown, unknown>): KubernetesApplicationResourceSpec =>
  mr.spec as unknown as KubernetesApplicationResourceSpec;

/** `wordpress-demo-deployment-sql`: the resource's name and the Secret's, so two resources never collide. */
export const propagatedSecretName = (resourceName: string, secretName: string): string => `${resourceName}-${secretName}`;

/** The namespace of the template, where its Secrets go; default when it names none (a cluster-scoped kind). */
export const secretNamespaceOf = (spec: KubernetesApplicationResourceSpec): string => spec.template.metadata.namespace ?? 'default';

/** Names of the propagated Secrets the spec asks for, in order, once each. */
export function wantedSecretNames(mr: ManagedResource<unknown, unknown>): string[] {
  const names = (specOf(mr).secrets ?? []).map((s) => propagatedSecretName(mr.metadata.name, s.name));
  return [...new Set(names)];
}

/** The template with this resource's marks: its uid, and the Secrets propagated with it when there are any. */
export function desiredTemplate(mr: ManagedResource<unknown, unknown>): DesiredObject {
  const { template } = specOf(mr);
  const secrets = wantedSecretNames(mr);
  const annotations = {
    ...(template.metadata.annotations as Record<string, string> | undefined),
    [RESOURCE_UID]: mr.metadata.uid,
    ...(secrets.length > 0 ? { [PROPAGATED_SECRETS]: secrets.join(',') } : {}),
  };
  return { ...template, metadata: { ...template.metadata, annotations } } as DesiredObject;
}

/**
 * A copy of `source` (a Secret of the control cluster, as the API returns it) for the cluster:
 * same type and data, named for this resource, marked with its uid. The data stays base64 as
 * read; it is never decoded, logged or returned.
 */
export function propagatedSecret(
  mr: ManagedResource<unknown, unknown>,
  sourceName: string,
  source: Record<string, unknown>,
  namespace: string,
): DesiredObject {
  const name = propagatedSecretName(mr.metadata.name, sourceName);
  const uid = mr.metadata.uid;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace, labels: { [RESOURCE_UID]: uid }, annotations: { [RESOURCE_UID]: uid } },
    type: (source.type as string | undefined) ?? 'Opaque',
    data: (source.data as Record<string, string> | undefined) ?? {},
  } as DesiredObject;
}

/** The propagated Secrets the live templated object says were made with it. */
export function propagatedSecretsOf(live: KubernetesObject | undefined): string[] {
  const listed = live?.metadata?.annotations?.[PROPAGATED_SECRETS];
  return listed ? listed.split(',').filter(Boolean) : [];
}

/** The propagated Secrets the spec lists and those the live templated object says were made with it: all that may be ours. */
export function secretsMadeWith(mr: ManagedResource<unknown, unknown>, live: KubernetesObject | undefined): string[] {
  return [...new Set([...wantedSecretNames(mr), ...propagatedSecretsOf(live)])];
}

/** A source Secret, in the control cluster, in the resource's namespace. */
export const sourceSecretKey = (namespace: string, name: string): ControlObjectKey => ({
  apiVersion: 'v1',
  kind: 'Secret',
  namespace,
  name,
});

export const isOurs = (live: KubernetesObject, uid: string): boolean => live.metadata?.annotations?.[RESOURCE_UID] === uid;

/**
 * Why `live` is not this resource's to touch, as the message Synced shows, or undefined when it
 * is. An object made by hand, or by another KubernetesApplicationResource (another application
 * templating the same name), is left exactly as it is.
 */
export function refusal(live: KubernetesObject, uid: string, target: TargetKey, cluster: string): string | undefined {
  if (isOurs(live, uid)) return undefined;
  const other = live.metadata?.annotations?.[RESOURCE_UID];
  const whose = other
    ? `it belongs to another KubernetesApplicationResource (${RESOURCE_UID}: ${other})`
    : `it was not made by a KubernetesApplicationResource (no ${RESOURCE_UID} annotation)`;
  return `${describeTarget(target)} already exists in ${cluster} and ${whose}: refusing to touch it`;
}
