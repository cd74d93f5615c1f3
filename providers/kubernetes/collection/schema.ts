// provider-kubernetes' ObservedObjectCollection, in both of its groups, in the shape of
// upstream's CRDs: the legacy cluster-scoped kubernetes.crossplane.io (its members are legacy
// Objects, its providerConfigRef names a legacy ProviderConfig) and Crossplane v2's namespaced
// kubernetes.m.crossplane.io (its members are namespaced Objects in its own namespace, its
// providerConfigRef is `{kind, name}`). For every object in the target cluster that its
// selector matches, it keeps one observe-only Object.
import { Type, type Static } from '@sinclair/typebox';
import { LabelSelectorSchema } from '#apis/label-selector';
import { ProviderConfigReference, TypedProviderConfigReference } from '#core/managed';
import { Doc, DocString } from '#core/schema';
import type { KindApi } from '#core/managed-kind';
import type { LabelSelector } from '#runtime/label-selector';

const collectionApi = (group: string, scope: 'Cluster' | 'Namespaced'): KindApi => ({
  group,
  version: 'v1alpha1',
  kind: 'ObservedObjectCollection',
  plural: 'observedobjectcollections',
  singular: 'observedobjectcollection',
  shortNames: [],
  categories: ['crossplane', 'managed', 'kubernetes'],
  description:
    'An observe-only set of objects in a target cluster, matched by a label selector: one observe-only Object per match (provider-kubernetes\u2019 ObservedObjectCollection).',
  scope,
});

export const clusterCollectionApi = collectionApi('kubernetes.crossplane.io', 'Cluster');
export const namespacedCollectionApi = collectionApi('kubernetes.m.crossplane.io', 'Namespaced');

const ObserveObjects = Doc('ObserveObjects declares what criteria object need to fulfil to become a member of this collection.', {
  apiVersion: DocString('APIVersion of objects that should be matched by the selector.', { minLength: 1 }),
  kind: DocString('Kind of objects that should be matched by the selector.', { minLength: 1 }),
  namespace: Type.Optional(
    DocString(
      'Namespace where to look for objects. If omitted, search is performed across all namespaces. For cluster-scoped objects, omit it.',
    ),
  ),
  selector: { ...LabelSelectorSchema('Label selector for the objects to include in the collection.'), 'x-kubernetes-map-type': 'atomic' },
});

const StringMap = (description: string) => Type.Record(Type.String(), Type.String(), { description });

const ObjectTemplate = Doc('What every member Object carries besides the membership label.', {
  metadata: Type.Optional(
    Doc('Metadata of the member Objects.', {
      labels: Type.Optional(StringMap('Labels of every member Object.')),
      annotations: Type.Optional(StringMap('Annotations of every member Object.')),
    }),
  ),
});

const collectionSpec = <P extends ReturnType<typeof Type.Optional>>(providerConfigRef: P) =>
  Doc('ObservedObjectCollectionSpec defines the desired state of ObservedObjectCollection.', {
    observeObjects: ObserveObjects,
    objectTemplate: Type.Optional(ObjectTemplate),
    providerConfigRef,
  });

export const ClusterCollectionSpec = collectionSpec(
  Type.Optional(Type.Object(ProviderConfigReference.properties, { ...ProviderConfigReference, default: { name: 'default' } })),
);
export const NamespacedCollectionSpec = collectionSpec(Type.Optional(TypedProviderConfigReference));

export interface CollectionSpec {
  observeObjects: { apiVersion: string; kind: string; namespace?: string; selector: LabelSelector };
  objectTemplate?: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> } };
  providerConfigRef?: { kind?: string; name: string };
}

/** The label every member carries, with the collection's name as its value (upstream's key). */
export const MEMBERSHIP_LABEL = 'kubernetes.crossplane.io/owned-by-collection';

export const CollectionObservation = Doc('What Chronoplane last saw of the collection.', {
  membershipLabel: Type.Optional(
    StringMap('MembershipLabel is the label set on each member of this collection and can be used for fetching them.'),
  ),
});
export type CollectionObservation = Static<typeof CollectionObservation>;
