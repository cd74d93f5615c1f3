// A minimal CustomResourceDefinition of kind Widget (`spec.size`, an integer) in a group of the
// test's choosing, for tests of kinds a target cluster serves only once such a CRD is there.
export function widgetCrd(group: string): object {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          // Every field declared: server-side apply refuses what a schema does not declare.
          schema: {
            openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } } },
          },
        },
      ],
    },
  };
}
