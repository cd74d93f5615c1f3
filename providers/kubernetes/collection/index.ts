// provider-kubernetes' ObservedObjectCollection in both groups (see schema.ts and client.ts):
// the legacy cluster-scoped one keeps legacy Objects, the Crossplane v2 namespaced one keeps
// kubernetes.m.crossplane.io Objects in its own namespace.
import type { TObject } from '@sinclair/typebox';
import { apiVersionOf, lazyConnector, type KindApi, type ManagedKind, type PrinterColumn } from '#core/managed-kind';
import { namespacedObjectApi } from '../object/namespaced-schema';
import { objectApi } from '../object/schema';
import type { MemberKind } from './members';
import {
  ClusterCollectionSpec,
  CollectionObservation,
  MEMBERSHIP_LABEL,
  NamespacedCollectionSpec,
  clusterCollectionApi,
  namespacedCollectionApi,
} from './schema';

// Upstream's columns, exactly (its KIND and APIVERSION read spec.kind and spec.apiVersion,
// which the spec does not have: they show empty there too).
const printerColumns: readonly PrinterColumn[] = [
  { name: 'KIND', type: 'string', jsonPath: '.spec.kind' },
  { name: 'APIVERSION', type: 'string', jsonPath: '.spec.apiVersion', priority: 1 },
  { name: 'PROVIDERCONFIG', type: 'string', jsonPath: '.spec.providerConfigRef.name' },
  { name: 'SYNCED', type: 'string', jsonPath: ".status.conditions[?(@.type=='Synced')].status" },
  { name: 'READY', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
  { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

function collectionKind(api: KindApi, spec: TObject, members: KindApi): ManagedKind<unknown, CollectionObservation> {
  const memberKind: MemberKind = { apiVersion: apiVersionOf(members), kind: members.kind };
  return {
    api,
    // A compatible kind has no forProvider: the CRD takes compatibleApi.spec, and the client reads the spec whole.
    forProvider: spec,
    atProvider: CollectionObservation,
    connector: lazyConnector(async () => (await import('./client')).collectionConnector(memberKind)),
    // Matching targets and members wake it by watch; the polls are only a safety net.
    poll: { steadySeconds: 600, pendingSeconds: 10 },
    // Its writes go to the control cluster's own API server, which answers in milliseconds.
    quickProviderCalls: true,
    compatibleApi: {
      spec,
      printerColumns,
      status: {
        fields: CollectionObservation.properties,
        write: (atProvider) => ({ membershipLabel: atProvider?.membershipLabel }),
        read: (status) => {
          const label = status.membershipLabel as Record<string, string> | undefined;
          return label && MEMBERSHIP_LABEL in label ? { membershipLabel: label } : undefined;
        },
      },
    },
  };
}

export const clusterCollectionKind = collectionKind(clusterCollectionApi, ClusterCollectionSpec, objectApi);
export const namespacedCollectionKind = collectionKind(namespacedCollectionApi, NamespacedCollectionSpec, namespacedObjectApi);
