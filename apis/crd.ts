// Builds CustomResourceDefinitions from the TypeBox schemas, so the CRD YAML is generated and
// never edited by hand. Managed kinds get Crossplane's printer columns and categories.
import { Type, type TSchema } from '@sinclair/typebox';
import { managedSpec, managedStatus } from '#core/managed';
import { toStructural } from './structural';
import type { KindApi, ManagedKind } from '#core/managed-kind';
import { withReferenceFields } from '#core/references/fields';
import { EXTERNAL_NAME } from '#core/annotations';

interface CrdOptions {
  api: KindApi;
  scope: 'Namespaced' | 'Cluster';
  spec: TSchema;
  status: TSchema;
  printerColumns: Record<string, unknown>[];
  /**
   * Versions served besides `api.version` with the very same schema (deprecated, not stored),
   * so manifests written for them apply unchanged without a conversion webhook.
   */
  olderVersions?: readonly string[];
}

/** Crossplane's READY, SYNCED and EXTERNAL-NAME, then the kind's own columns, then AGE. */
export function managedResourceCrd(
  kind: Pick<ManagedKind, 'api' | 'forProvider' | 'atProvider' | 'references' | 'printerColumns' | 'compatibleApi'>,
) {
  const scope = kind.api.scope ?? 'Namespaced';
  const compatible = kind.compatibleApi;
  const status = managedStatus(kind.atProvider, compatible?.status?.fields);
  if (compatible) {
    return crd({
      api: kind.api,
      scope,
      spec: compatible.spec,
      status,
      olderVersions: compatible.olderVersions,
      printerColumns: [...compatible.printerColumns],
    });
  }
  return crd({
    api: kind.api,
    scope,
    spec: managedSpec(withReferenceFields(kind.forProvider, kind.references)),
    status,
    printerColumns: [
      { name: 'READY', type: 'string', jsonPath: ".status.conditions[?(@.type=='Ready')].status" },
      { name: 'SYNCED', type: 'string', jsonPath: ".status.conditions[?(@.type=='Synced')].status" },
      { name: 'EXTERNAL-NAME', type: 'string', jsonPath: `.metadata.annotations.${EXTERNAL_NAME.replace(/\./g, '\\.')}` },
      ...(kind.printerColumns ?? []),
      { name: 'AGE', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  });
}

export function crd(options: CrdOptions) {
  const { api } = options;
  const root = Type.Object(
    {
      apiVersion: Type.Optional(Type.String()),
      kind: Type.Optional(Type.String()),
      metadata: Type.Optional(Type.Object({})),
      spec: options.spec,
      status: Type.Optional(options.status),
    },
    { description: api.description },
  );
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${api.plural}.${api.group}`, labels: { 'app.kubernetes.io/part-of': 'chronoplane' } },
    spec: {
      group: api.group,
      names: {
        kind: api.kind,
        listKind: `${api.kind}List`,
        plural: api.plural,
        singular: api.singular,
        shortNames: api.shortNames,
        categories: api.categories,
      },
      scope: options.scope,
      versions: [...(options.olderVersions ?? []), api.version].map((name) => ({
        name,
        served: true,
        storage: name === api.version,
        ...(name === api.version ? {} : { deprecated: true }),
        subresources: { status: {} },
        additionalPrinterColumns: options.printerColumns,
        schema: { openAPIV3Schema: toStructural(JSON.parse(JSON.stringify(root))) },
      })),
    },
  };
}
