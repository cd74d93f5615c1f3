// The Kubernetes half of the bad-input corpus (issue 21): what users get wrong, and what hostile
// users try, with provider-kubernetes' Object in both groups (kubernetes.crossplane.io, cluster-
// scoped; kubernetes.m.crossplane.io, namespaced), their ProviderConfigs and kubeconfigs,
// ObservedObjectCollections, and seed 003's KubernetesApplication, KubernetesApplicationResource
// and KubernetesCluster. Each case states what the user should get: refused at admission naming
// the field, or a condition whose message explains it. The runner (corpus.test.ts) also checks
// that no hot loop follows, that everything deletes, and that nothing is left in remote-1 or
// remote-2 (whatever a case makes there goes to TARGET_NAMESPACE, named after the case).
//
// Messages are the real servers' and Chronoplane's, as a run of the corpus shows them; each was
// checked against the API server and the worker. A case whose product behaviour is wrong keeps
// the outcome a user should get and says what happens instead in a FIXME(lead) comment.
import { CORPUS_NAMESPACE, TARGET_NAMESPACE, type BadInputCase, type Manifest } from './case';
import {
  CASE_LABEL,
  LEGACY_OBJECT_V1,
  REMOTE,
  UNREACHABLE_SERVER,
  application,
  applicationOnCluster,
  clusterProviderConfig,
  collection,
  configMap,
  configMapTemplate,
  fromSecret,
  kubeconfig,
  kubeconfigSecret,
  kubernetesCluster,
  legacyObject,
  legacyProviderConfig,
  nameOfLength,
  namespacedObject,
  namespacedProviderConfig,
  objectWithKubeconfig,
  remoteKubeconfig,
  remoteServer,
  secretRef,
  WORKLOAD,
} from './kubernetes-fixtures';

const NS = CORPUS_NAMESPACE;

/** A case refused at admission: `apply` is the bad manifest, `message` what kubectl must print. */
const refused = (name: string, mistake: string, apply: Manifest | Manifest[], message: RegExp): BadInputCase => ({
  name,
  mistake,
  apply: Array.isArray(apply) ? apply : [apply],
  expect: { refused: { message } },
});

/** A case admitted, whose last object's `type` condition must be False with `message`. */
const explained = (
  name: string,
  mistake: string,
  parts: { setup?: Manifest[]; apply: Manifest[] },
  message: RegExp,
  condition: { type?: 'Synced' | 'Ready'; reason?: string } = {},
): BadInputCase => ({
  name,
  mistake,
  ...(parts.setup ? { setup: parts.setup } : {}),
  apply: parts.apply,
  expect: {
    condition: { type: condition.type ?? 'Synced', status: 'False', ...(condition.reason ? { reason: condition.reason } : {}), message },
  },
});

/** An edit of a Ready object that admission must refuse: the good one first, then `edit(good)`. */
const refusedEdit = (
  name: string,
  mistake: string,
  good: Manifest,
  kind: string,
  edit: (good: Manifest) => Manifest,
  message: RegExp,
): BadInputCase => ({
  name,
  mistake,
  setup: [good],
  readyFirst: [{ kind, name: good.metadata.name }],
  apply: [edit(good)],
  expect: { refused: { message } },
});

/** The manifest of a legacy Object, replaced. */
const withManifest = (object: Manifest, manifest: Record<string, unknown>): Manifest => ({
  ...object,
  spec: { ...(object.spec as object), forProvider: { manifest } },
});

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Where kubectl's own schema check says a field belongs: the path without indexes, after the kind's OpenAPI name. */
const schemaPath = (parent: string) => `\\S+\\.${escaped(parent.replace(/\[\d+\]/g, ''))}`;

/**
 * A required field left out, as kubectl reports it: the API server's "spec.x.field: Required
 * value", or kubectl's own check against the published schema, which may run first
 * (`missing required field "field" in io.….Kind.spec.x`). Either names the field and where it belongs.
 */
const requiredField = (parent: string, field: string) =>
  new RegExp(`${escaped(`${parent}.${field}`)}: Required value|missing required field "${escaped(field)}" in ${schemaPath(parent)}`);

/** A field the kind does not have, as the API server's strict decoding or kubectl's schema check reports it. */
const unknownField = (parent: string, field: string) =>
  new RegExp(`unknown field "${escaped(`${parent}.${field}`)}"|unknown field "${escaped(field)}" in ${schemaPath(parent)}`);

const LEGACY_OBJECTS = 'objects.kubernetes.crossplane.io';
const MODERN_OBJECTS = 'objects.kubernetes.m.crossplane.io';

/** The message every refused kubeconfig field gets, naming the field and never its value. */
const inlineOnly = (field: string) =>
  new RegExp(`uses ${escaped(field)}: Chronoplane accepts only inline credentials in a kubeconfig from a Secret`);

// ---------------------------------------------------------------------------------------------
// provider-kubernetes' cluster-scoped Object: refused at admission
// ---------------------------------------------------------------------------------------------
const legacyAdmission: BadInputCase[] = [
  refused(
    'obj-manifest-missing',
    'an Object without spec.forProvider.manifest',
    { ...legacyObject('obj-manifest-missing'), spec: { forProvider: {}, providerConfigRef: { name: REMOTE } } },
    requiredField('spec.forProvider', 'manifest'),
  ),
  refused(
    'obj-manifest-no-kind',
    'a manifest without kind',
    legacyObject('obj-manifest-no-kind', {
      manifest: { apiVersion: 'v1', metadata: { name: 'obj-manifest-no-kind', namespace: TARGET_NAMESPACE } },
    }),
    /spec\.forProvider\.manifest\.kind: Required value/,
  ),
  refused(
    'obj-manifest-no-apiversion',
    'a manifest without apiVersion, in a v1alpha1 Object',
    legacyObject('obj-manifest-no-apiversion', {
      apiVersion: LEGACY_OBJECT_V1,
      manifest: { kind: 'ConfigMap', metadata: { name: 'obj-manifest-no-apiversion', namespace: TARGET_NAMESPACE } },
    }),
    /spec\.forProvider\.manifest\.apiVersion: Required value/,
  ),
  refused(
    'obj-manifest-empty-kind',
    'a manifest whose kind is the empty string',
    legacyObject('obj-manifest-empty-kind', { manifest: { ...configMap('obj-manifest-empty-kind'), kind: '' } }),
    /spec\.forProvider\.manifest\.kind: Invalid value: "": must not be empty/,
  ),
  refused(
    'obj-policies-both-forms',
    'managementPolicy (v1alpha1) and managementPolicies (v1alpha2) in one Object',
    legacyObject('obj-policies-both-forms', { spec: { managementPolicy: 'Observe', managementPolicies: ['*'] } }),
    /use managementPolicy \(v1alpha1\) or managementPolicies \(v1alpha2\), not both/,
  ),
  refused(
    'obj-policies-star-and-more',
    'managementPolicies with "*" and another action',
    legacyObject('obj-policies-star-and-more', { spec: { managementPolicies: ['*', 'Observe'] } }),
    /managementPolicies: "\*" cannot be combined with other actions/,
  ),
  refused(
    'obj-policies-unknown-action',
    'managementPolicies with an action that does not exist',
    legacyObject('obj-policies-unknown-action', { spec: { managementPolicies: ['Read'] } }),
    /spec\.managementPolicies\[0\]: Unsupported value: "Read": supported values: "\*", "Observe", "Create", "Update", "Delete", "LateInitialize"/,
  ),
  refused(
    'obj-policies-duplicate',
    'managementPolicies naming an action twice',
    legacyObject('obj-policies-duplicate', { spec: { managementPolicies: ['Observe', 'Observe'] } }),
    /spec\.managementPolicies\[1\]: Duplicate value: "Observe"/,
  ),
  refused(
    'obj-policy-enum',
    'a v1alpha1 managementPolicy that does not exist',
    legacyObject('obj-policy-enum', { apiVersion: LEGACY_OBJECT_V1, spec: { managementPolicy: 'ObserveOnly' } }),
    /spec\.managementPolicy: Unsupported value: "ObserveOnly": supported values: "Default", "ObserveCreateUpdate", "ObserveDelete", "Observe"/,
  ),
  refused(
    'obj-deletion-policy-enum',
    'deletionPolicy Keep (Crossplane has Delete and Orphan)',
    legacyObject('obj-deletion-policy-enum', { spec: { deletionPolicy: 'Keep' } }),
    /spec\.deletionPolicy: Unsupported value: "Keep": supported values: "Delete", "Orphan"/,
  ),
  refused(
    'obj-readiness-enum',
    'a readiness policy that does not exist',
    legacyObject('obj-readiness-enum', { spec: { readiness: { policy: 'WhenReady' } } }),
    /spec\.readiness\.policy: Unsupported value: "WhenReady"/,
  ),
  refused(
    'obj-celquery-missing',
    'readiness DeriveFromCelQuery without a celQuery',
    legacyObject('obj-celquery-missing', { spec: { readiness: { policy: 'DeriveFromCelQuery' } } }),
    /celQuery must be set if policy is DeriveFromCelQuery/,
  ),
  refused(
    'obj-detail-no-fieldpath',
    'a connection detail without fieldPath (upstream makes it optional; nothing could be published)',
    legacyObject('obj-detail-no-fieldpath', {
      spec: {
        connectionDetails: [
          { apiVersion: 'v1', kind: 'ConfigMap', name: 'obj-detail-no-fieldpath', namespace: TARGET_NAMESPACE, toConnectionSecretKey: 'k' },
        ],
        writeConnectionSecretToRef: { name: 'obj-detail-no-fieldpath', namespace: NS },
      },
    }),
    requiredField('spec.connectionDetails[0]', 'fieldPath'),
  ),
  refused(
    'obj-detail-index-no-key',
    'a connection detail whose fieldPath ends in an index, without toConnectionSecretKey',
    legacyObject('obj-detail-index-no-key', {
      spec: {
        connectionDetails: [{ apiVersion: 'v1', kind: 'Service', name: 'x', namespace: TARGET_NAMESPACE, fieldPath: 'spec.ports[0]' }],
        writeConnectionSecretToRef: { name: 'obj-detail-index-no-key', namespace: NS },
      },
    }),
    /toConnectionSecretKey is required when fieldPath ends in an index/,
  ),
  refused(
    'obj-patch-fieldpath-malformed',
    'a patchesFrom fieldPath with an empty segment',
    legacyObject('obj-patch-fieldpath-malformed', {
      spec: { references: [{ patchesFrom: { name: 'obj-patch-fieldpath-malformed-source', fieldPath: 'spec..forProvider' } }] },
    }),
    /spec\.references\[0\]\.patchesFrom\.fieldPath: Invalid value: .*must be a field path such as/,
  ),
  refused(
    'obj-patch-tofieldpath-malformed',
    'a toFieldPath with an unclosed bracket',
    legacyObject('obj-patch-tofieldpath-malformed', {
      spec: {
        references: [{ patchesFrom: { name: 'obj-patch-tofieldpath-malformed-source', fieldPath: 'data.key' }, toFieldPath: 'data[key' }],
      },
    }),
    /spec\.references\[0\]\.toFieldPath: Invalid value: .*must be a field path such as/,
  ),
  refused(
    'obj-reference-two-forms',
    'one reference that is both patchesFrom and dependsOn',
    legacyObject('obj-reference-two-forms', {
      spec: {
        references: [
          { patchesFrom: { name: 'obj-reference-two-forms-a', fieldPath: 'data.key' }, dependsOn: { name: 'obj-reference-two-forms-b' } },
        ],
      },
    }),
    /each reference has exactly one of fromObject, patchesFrom and dependsOn/,
  ),
  refused(
    'obj-fromobject-no-tofieldpath',
    "seed 002's fromObject without toFieldPath",
    legacyObject('obj-fromobject-no-tofieldpath', {
      apiVersion: LEGACY_OBJECT_V1,
      spec: {
        references: [
          {
            fromObject: {
              apiVersion: LEGACY_OBJECT_V1,
              kind: 'Object',
              name: 'obj-fromobject-no-tofieldpath-source',
              fieldPath: 'metadata.name',
            },
          },
        ],
      },
    }),
    /fromObject needs toFieldPath/,
  ),
  refused(
    'obj-fromobject-into-metadata',
    'a fromObject that writes into metadata (hostile: relabel or rename the Object)',
    legacyObject('obj-fromobject-into-metadata', {
      apiVersion: LEGACY_OBJECT_V1,
      spec: {
        references: [
          {
            fromObject: {
              apiVersion: LEGACY_OBJECT_V1,
              kind: 'Object',
              name: 'obj-fromobject-into-metadata-source',
              fieldPath: 'metadata.name',
            },
            toFieldPath: 'metadata.labels[owner]',
          },
        ],
      },
    }),
    /fromObject writes only into this object.s spec: its toFieldPath starts with spec\./,
  ),
  refused(
    'obj-dependson-tofieldpath',
    'a dependsOn with a toFieldPath, as if it copied something',
    legacyObject('obj-dependson-tofieldpath', {
      spec: { references: [{ dependsOn: { name: 'obj-dependson-tofieldpath-other' }, toFieldPath: 'data.key' }] },
    }),
    /dependsOn copies nothing, so it takes no toFieldPath/,
  ),
  refused(
    'obj-config-ref-empty',
    'providerConfigRef with an empty name',
    legacyObject('obj-config-ref-empty', { spec: { providerConfigRef: { name: '' } } }),
    /spec\.providerConfigRef\.name: Invalid value: "": spec\.providerConfigRef\.name in body should be at least 1 chars long/,
  ),
  refused(
    'obj-name-254',
    'an Object named with 254 characters, one past the limit',
    legacyObject(nameOfLength('obj-name-254', 254), { manifest: configMap('obj-name-254') }),
    /metadata\.name: Invalid value: .*must be no more than 253 characters/,
  ),
  refused(
    'obj-target-name-254',
    "a manifest's name of 254 characters",
    legacyObject('obj-target-name-254', { manifest: configMap(nameOfLength('obj-target-name-254', 254)) }),
    /spec\.forProvider\.manifest\.metadata\.name: Too long: may not be (longer|more) than 253/,
  ),
  refused(
    'obj-name-unicode',
    'an Object name with a non-ASCII letter',
    legacyObject('obj-name-unicode-\u00f1', { manifest: configMap('obj-name-unicode') }),
    /metadata\.name: Invalid value: "obj-name-unicode-\u00f1": a lowercase RFC 1123 subdomain/,
  ),
  refused(
    'obj-label-unicode',
    'a label value in Cyrillic on the Object',
    legacyObject('obj-label-unicode', { metadata: { labels: { team: '\u043a\u043e\u043c\u0430\u043d\u0434\u0430' } } }),
    /metadata\.labels: Invalid value: "\u043a\u043e\u043c\u0430\u043d\u0434\u0430": a valid label must be an empty string or consist of alphanumeric characters/,
  ),
  refused(
    'obj-target-label-unicode',
    'a label key with non-ASCII letters in the manifest',
    legacyObject('obj-target-label-unicode', { manifest: configMap('obj-target-label-unicode', {}, { labels: { 'cl\u00e9': 'v' } }) }),
    /spec\.forProvider\.manifest\.metadata\.labels: Invalid value: "cl\u00e9": name part must consist of alphanumeric characters/,
  ),
  refused(
    'obj-target-label-control',
    'a label value with a newline in the manifest',
    legacyObject('obj-target-label-control', { manifest: configMap('obj-target-label-control', {}, { labels: { app: 'a\nb' } }) }),
    /spec\.forProvider\.manifest\.metadata\.labels: Invalid value: "a\\nb": a valid label must be an empty string/,
  ),
  refused(
    'obj-target-namespace-invalid',
    'a manifest namespace with capitals and an underscore',
    legacyObject('obj-target-namespace-invalid', {
      manifest: configMap('obj-target-namespace-invalid', {}, { namespace: 'Bad_Namespace' }),
    }),
    /spec\.forProvider\.manifest\.metadata\.namespace: Invalid value: "Bad_Namespace": a lowercase RFC 1123 label/,
  ),
  refused(
    'obj-target-name-capitals',
    'a manifest name in capitals (clients address objects in lowercase: it would be another object)',
    legacyObject('obj-target-name-capitals', { manifest: configMap('OBJ-TARGET-NAME-CAPITALS') }),
    /spec\.forProvider\.manifest\.metadata\.name: Invalid value: .*must be lowercase, as a Kubernetes name is/,
  ),
  refused(
    'obj-manifest-2mib',
    'a 2 MiB ConfigMap wrapped in an Object',
    legacyObject('obj-manifest-2mib', { manifest: configMap('obj-manifest-2mib', { data: { blob: 'x'.repeat(2 * 1024 * 1024) } }) }),
    // kubectl apply keeps a copy in an annotation, so the request is twice that: past the API
    // server's 3 MiB limit for a request body.
    /Request entity too large: limit is 3145728/,
  ),
];

// ---------------------------------------------------------------------------------------------
// The manifest's identity is fixed: a rename would leave the first target behind, unmanaged
// ---------------------------------------------------------------------------------------------
const identityFixed = (field: string) =>
  new RegExp(
    `spec\\.forProvider\\.manifest\\.${field.replace('.', '\\.')} cannot be changed: it names the object in the target cluster.*delete and recreate the Object`,
  );

const identityEdits: BadInputCase[] = [
  refusedEdit(
    'obj-edit-target-renamed',
    "renaming a Ready Object's target",
    legacyObject('obj-edit-target-renamed'),
    LEGACY_OBJECTS,
    (good) => withManifest(good, configMap('obj-edit-target-renamed-other')),
    identityFixed('metadata.name'),
  ),
  refusedEdit(
    'obj-edit-target-namespace',
    "moving a Ready Object's target to another namespace",
    legacyObject('obj-edit-target-namespace'),
    LEGACY_OBJECTS,
    (good) => withManifest(good, configMap('obj-edit-target-namespace', undefined, { namespace: 'default' })),
    identityFixed('metadata.namespace'),
  ),
  refusedEdit(
    'obj-edit-target-kind',
    "turning a Ready Object's ConfigMap into a Secret",
    legacyObject('obj-edit-target-kind'),
    LEGACY_OBJECTS,
    (good) => withManifest(good, { ...configMap('obj-edit-target-kind'), kind: 'Secret' }),
    identityFixed('kind'),
  ),
  refusedEdit(
    'obj-edit-target-apiversion',
    "changing a Ready Object's target apiVersion",
    legacyObject('obj-edit-target-apiversion'),
    LEGACY_OBJECTS,
    (good) => withManifest(good, { ...configMap('obj-edit-target-apiversion'), apiVersion: 'example.com/v1' }),
    identityFixed('apiVersion'),
  ),
  refusedEdit(
    'obj-edit-target-unnamed',
    "removing the name of a Ready Object's target (it would fall back to the Object's name)",
    legacyObject('obj-edit-target-unnamed', { manifest: configMap('obj-edit-target-unnamed-cm') }),
    LEGACY_OBJECTS,
    (good) =>
      withManifest(good, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: TARGET_NAMESPACE }, data: { key: 'value' } }),
    identityFixed('metadata.name'),
  ),
  refusedEdit(
    'mobj-edit-target-name',
    "renaming a Ready namespaced Object's target",
    namespacedObject('mobj-edit-target-name'),
    MODERN_OBJECTS,
    (good) => ({ ...good, spec: { ...(good.spec as object), forProvider: { manifest: configMap('mobj-edit-target-name-renamed') } } }),
    identityFixed('metadata.name'),
  ),
];

// ---------------------------------------------------------------------------------------------
// provider-kubernetes' cluster-scoped Object: admitted, and the condition says what is wrong
// ---------------------------------------------------------------------------------------------
const legacyConditions: BadInputCase[] = [
  explained(
    'obj-target-kind-unknown',
    'a misspelled kind (ConfigMapp) the target cluster does not serve',
    { apply: [legacyObject('obj-target-kind-unknown', { manifest: { ...configMap('obj-target-kind-unknown'), kind: 'ConfigMapp' } })] },
    /ConfigMapp.*(Unrecognized API version and kind: v1 ConfigMapp|does not serve this kind)/,
  ),
  explained(
    'obj-target-group-unknown',
    'a custom resource whose CRD the target cluster does not have',
    {
      apply: [
        legacyObject('obj-target-group-unknown', {
          manifest: {
            apiVersion: 'widgets.example.com/v1',
            kind: 'Widget',
            metadata: { name: 'obj-target-group-unknown', namespace: TARGET_NAMESPACE },
          },
        }),
      ],
    },
    /cannot apply Widget .*obj-target-group-unknown of widgets\.example\.com\/v1: the target cluster does not serve this kind/,
  ),
  explained(
    'obj-target-field-unknown',
    'a top-level field the target kind does not have (dta for data): strict apply',
    {
      apply: [legacyObject('obj-target-field-unknown', { manifest: { ...configMap('obj-target-field-unknown'), dta: { key: 'value' } } })],
    },
    /\.dta: field not declared in schema/,
  ),
  explained(
    'obj-target-nested-field-unknown',
    'a misspelled field deep in a Service (ports[0].prot)',
    {
      apply: [
        legacyObject('obj-target-nested-field-unknown', {
          manifest: {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: 'obj-target-nested-field-unknown', namespace: TARGET_NAMESPACE },
            spec: { ports: [{ port: 80, prot: 'TCP' }] },
          },
        }),
      ],
    },
    /\.spec\.ports\[port=80,protocol="TCP"\]\.prot: field not declared in schema/,
  ),
  explained(
    'obj-target-value-invalid',
    'a Service port out of range, which only the target validates',
    {
      apply: [
        legacyObject('obj-target-value-invalid', {
          manifest: {
            apiVersion: 'v1',
            kind: 'Service',
            metadata: { name: 'obj-target-value-invalid', namespace: TARGET_NAMESPACE },
            spec: { ports: [{ port: 70000 }] },
          },
        }),
      ],
    },
    /spec\.ports\[0\]\.port: Invalid value: 70000: must be between 1 and 65535, inclusive/,
  ),
  explained(
    'obj-target-name-control',
    'a manifest name with a control character (BEL) in it',
    { apply: [legacyObject('obj-target-name-control', { manifest: configMap('obj-target-name-control\u0007x') })] },
    /metadata\.name: Invalid value: "obj-target-name-control\\ax": a lowercase RFC 1123 subdomain/,
  ),
  explained(
    'obj-target-data-key-unicode',
    'a ConfigMap data key with an accented letter',
    {
      apply: [
        legacyObject('obj-target-data-key-unicode', { manifest: configMap('obj-target-data-key-unicode', { data: { 'cl\u00e9': 'v' } }) }),
      ],
    },
    /data\[cl\u00e9\]: Invalid value: "cl\u00e9": a valid config key must consist of alphanumeric characters/,
  ),
  explained(
    'obj-target-namespace-missing',
    'a manifest for a namespace the target cluster does not have',
    {
      apply: [
        legacyObject('obj-target-namespace-missing', {
          manifest: configMap('obj-target-namespace-missing', undefined, { namespace: 'obj-target-namespace-missing-ns' }),
        }),
      ],
    },
    /namespaces "obj-target-namespace-missing-ns" not found/,
  ),
  explained(
    'obj-patch-source-missing',
    'patchesFrom an Object that does not exist',
    {
      apply: [
        legacyObject('obj-patch-source-missing', {
          spec: {
            references: [
              {
                patchesFrom: { name: 'obj-patch-source-missing-source', fieldPath: 'spec.forProvider.manifest.data.key' },
                toFieldPath: 'data.copied',
              },
            ],
          },
        }),
      ],
    },
    /waiting for Object obj-patch-source-missing-source: not found/,
    { type: 'Ready' },
  ),
  explained(
    'obj-patch-field-missing',
    'patchesFrom a field the source Object does not have',
    {
      setup: [legacyObject('obj-patch-field-missing-source')],
      apply: [
        legacyObject('obj-patch-field-missing', {
          spec: {
            references: [
              {
                patchesFrom: { name: 'obj-patch-field-missing-source', fieldPath: 'spec.forProvider.manifest.data.absent' },
                toFieldPath: 'data.copied',
              },
            ],
          },
        }),
      ],
    },
    /waiting for Object obj-patch-field-missing-source: spec\.forProvider\.manifest\.data\.absent is not set yet/,
    { type: 'Ready' },
  ),
  explained(
    'obj-patch-kind-unknown',
    'patchesFrom a kind the control cluster does not serve (the wrong kind)',
    {
      apply: [
        legacyObject('obj-patch-kind-unknown', {
          spec: {
            references: [
              {
                patchesFrom: {
                  apiVersion: 'example.com/v1',
                  kind: 'Widget',
                  name: 'obj-patch-kind-unknown-source',
                  fieldPath: 'spec.size',
                },
                toFieldPath: 'data.size',
              },
            ],
          },
        }),
      ],
    },
    /waiting for Widget obj-patch-kind-unknown-source: not found/,
    { type: 'Ready' },
  ),
  explained(
    'obj-celquery-broken',
    'a DeriveFromCelQuery readiness whose celQuery does not compile',
    { apply: [legacyObject('obj-celquery-broken', { spec: { readiness: { policy: 'DeriveFromCelQuery', celQuery: 'object.data.(' } } })] },
    /readiness\.celQuery does not compile: /,
  ),
  explained(
    'obj-detail-field-absent',
    'a connection detail naming a field the target does not have',
    {
      apply: [
        legacyObject('obj-detail-field-absent', {
          spec: {
            connectionDetails: [
              {
                apiVersion: 'v1',
                kind: 'ConfigMap',
                name: 'obj-detail-field-absent',
                namespace: TARGET_NAMESPACE,
                fieldPath: 'data.missing',
              },
            ],
            writeConnectionSecretToRef: { name: 'obj-detail-field-absent', namespace: NS },
          },
        }),
      ],
    },
    /has no field data\.missing/,
  ),
  explained(
    'obj-config-missing',
    'an Object naming a ProviderConfig that does not exist',
    { apply: [legacyObject('obj-config-missing', { spec: { providerConfigRef: { name: 'obj-config-missing-config' } } })] },
    /cannot get ProviderConfig "obj-config-missing-config": not found/,
  ),
  explained(
    'obj-kubeconfig-secret-missing',
    'a ProviderConfig whose kubeconfig Secret does not exist',
    objectWithKubeconfig('obj-kubeconfig-secret-missing', undefined),
    new RegExp(`cannot read the kubeconfig: key "kubeconfig" of Secret ${NS}/obj-kubeconfig-secret-missing-kubeconfig .*not found`),
  ),
  explained(
    'obj-kubeconfig-key-missing',
    'a ProviderConfig naming a key its Secret does not have',
    {
      setup: [
        kubeconfigSecret('obj-kubeconfig-key-missing-kubeconfig', 'x', 'config'),
        legacyProviderConfig('obj-kubeconfig-key-missing-config', fromSecret('obj-kubeconfig-key-missing-kubeconfig')),
      ],
      apply: [legacyObject('obj-kubeconfig-key-missing', { spec: { providerConfigRef: { name: 'obj-kubeconfig-key-missing-config' } } })],
    },
    new RegExp(`cannot read the kubeconfig: key "kubeconfig" of Secret ${NS}/obj-kubeconfig-key-missing-kubeconfig .*not found`),
  ),
  explained(
    'obj-kubeconfig-garbage',
    'a kubeconfig Secret that is not YAML',
    objectWithKubeconfig('obj-kubeconfig-garbage', '{{{ not: yaml: ['),
    /the kubeconfig in key "kubeconfig" of Secret .*obj-kubeconfig-garbage-kubeconfig .* is not valid YAML or JSON/,
  ),
  explained(
    'obj-kubeconfig-no-context',
    'a kubeconfig without a current context',
    objectWithKubeconfig('obj-kubeconfig-no-context', 'apiVersion: v1\nkind: Config\nclusters: []\n'),
    /has no current context with a cluster server/,
  ),
  explained(
    'obj-kubeconfig-unreachable',
    'a kubeconfig whose server does not answer',
    objectWithKubeconfig(
      'obj-kubeconfig-unreachable',
      kubeconfig({ server: UNREACHABLE_SERVER, 'insecure-skip-tls-verify': true }, { token: 'token' }),
    ),
    /target cluster \(ProviderConfig "obj-kubeconfig-unreachable-config"\): .*ECONNREFUSED 127\.0\.0\.1:9/,
    { type: 'Ready', reason: 'Unavailable' },
  ),
  explained(
    'obj-kubeconfig-bad-token',
    'a kubeconfig with a token the target cluster does not know',
    objectWithKubeconfig(
      'obj-kubeconfig-bad-token',
      kubeconfig({ server: remoteServer(), 'insecure-skip-tls-verify': true }, { token: 'not-a-token' }),
    ),
    /target cluster \(ProviderConfig "obj-kubeconfig-bad-token-config"\): cannot .*Unauthorized/,
  ),
  explained(
    'obj-kubeconfig-exec',
    'a kubeconfig that runs a command (hostile: code execution in the worker)',
    objectWithKubeconfig(
      'obj-kubeconfig-exec',
      kubeconfig(
        { server: UNREACHABLE_SERVER },
        { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'sh', args: ['-c', 'id'], interactiveMode: 'Never' } },
      ),
    ),
    inlineOnly('users[u].exec'),
  ),
  explained(
    'obj-kubeconfig-auth-provider',
    'a kubeconfig with an auth-provider plugin',
    objectWithKubeconfig(
      'obj-kubeconfig-auth-provider',
      kubeconfig({ server: UNREACHABLE_SERVER }, { 'auth-provider': { name: 'oidc', config: {} } }),
    ),
    inlineOnly('users[u].auth-provider'),
  ),
  explained(
    'obj-kubeconfig-cert-files',
    "a kubeconfig naming the worker's own certificate files (hostile: borrow its identity)",
    objectWithKubeconfig(
      'obj-kubeconfig-cert-files',
      kubeconfig(
        { server: UNREACHABLE_SERVER },
        { 'client-certificate': '/etc/kubernetes/pki/admin.crt', 'client-key': '/etc/kubernetes/pki/admin.key' },
      ),
    ),
    inlineOnly('users[u].client-certificate'),
  ),
  explained(
    'obj-kubeconfig-ca-file',
    'a kubeconfig naming a CA file on the worker',
    objectWithKubeconfig(
      'obj-kubeconfig-ca-file',
      kubeconfig({ server: UNREACHABLE_SERVER, 'certificate-authority': '/etc/ssl/certs/ca-certificates.crt' }, { token: 'token' }),
    ),
    inlineOnly('clusters[c].certificate-authority'),
  ),
  explained(
    'obj-kubeconfig-token-file',
    "a kubeconfig reading the worker's service account token file",
    objectWithKubeconfig(
      'obj-kubeconfig-token-file',
      kubeconfig({ server: UNREACHABLE_SERVER }, { tokenFile: '/var/run/secrets/kubernetes.io/serviceaccount/token' }),
    ),
    inlineOnly('users[u].tokenFile'),
  ),
  explained(
    'obj-observe-missing-target',
    'an Observe-only Object for a ConfigMap that is not there',
    { apply: [legacyObject('obj-observe-missing-target', { spec: { managementPolicies: ['Observe'] } })] },
    /no external resource is named by crossplane\.io\/external-name, and the management policies do not allow Create/,
  ),
];

/** Names at the limit and contents that are unusual but valid: they work. */
const legacyLimits: BadInputCase[] = [
  {
    name: 'obj-name-253',
    mistake: 'an Object (and so its target) named with exactly 253 characters',
    apply: [
      legacyObject(nameOfLength('obj-name-253', 253), { manifest: { ...configMap('x'), metadata: { namespace: TARGET_NAMESPACE } } }),
    ],
    expect: { condition: { type: 'Ready', status: 'True', message: /^$/ } },
  },
  {
    name: 'obj-data-control-chars',
    mistake: 'ConfigMap data with NUL, BEL, a right-to-left mark and an emoji (all valid in a string): Ready like any other',
    apply: [
      legacyObject('obj-data-control-chars', {
        manifest: configMap('obj-data-control-chars', { data: { text: 'a\u0000b\u0007c\u200fd \u{1F680}' } }),
      }),
    ],
    expect: { condition: { type: 'Ready', status: 'True', message: /^$/ } },
  },
  {
    // Applied as a user applies an object this large: server-side. Client-side `kubectl apply`
    // keeps a copy in the last-applied annotation, which cannot hold 900 KB ("metadata.annotations:
    // Too long: may not be more than 262144 bytes").
    name: 'obj-configmap-900kb',
    mistake: 'a 900 KB ConfigMap wrapped in an Object: spec and mirrored status together pass etcd’s limit',
    serverSide: true,
    apply: [
      legacyObject('obj-configmap-900kb', { manifest: configMap('obj-configmap-900kb', { data: { blob: 'x'.repeat(900 * 1024) } }) }),
    ],
    expect: { condition: { type: 'Synced', status: 'True', message: /status\.atProvider is left out: .*size limit/ } },
  },
];

// ---------------------------------------------------------------------------------------------
// Crossplane v2's namespaced Object (kubernetes.m.crossplane.io)
// ---------------------------------------------------------------------------------------------
const namespaced: BadInputCase[] = [
  refused(
    'mobj-patch-other-namespace',
    "patchesFrom an Object in another namespace (hostile: read another tenant's data)",
    namespacedObject('mobj-patch-other-namespace', {
      spec: {
        references: [
          {
            patchesFrom: { name: 'db', namespace: 'kube-system', fieldPath: 'spec.forProvider.manifest.data.password' },
            toFieldPath: 'data.password',
          },
        ],
      },
    }),
    new RegExp(`a reference may only name objects in the object's own namespace \\(${NS}\\); kube-system is another tenant's`),
  ),
  refused(
    'mobj-dependson-other-namespace',
    "dependsOn an Object in another namespace (hostile: hold another tenant's deletion)",
    namespacedObject('mobj-dependson-other-namespace', { spec: { references: [{ dependsOn: { name: 'db', namespace: 'kube-system' } }] } }),
    new RegExp(`a reference may only name objects in the object's own namespace \\(${NS}\\); kube-system is another tenant's`),
  ),
  refused(
    'mobj-reference-empty',
    'a reference with neither patchesFrom nor dependsOn',
    namespacedObject('mobj-reference-empty', { spec: { references: [{ toFieldPath: 'data.key' }] } }),
    /each reference has exactly one of patchesFrom and dependsOn/,
  ),
  refused(
    'mobj-fromobject',
    "seed 002's fromObject in a namespaced Object (it is the legacy group's)",
    namespacedObject('mobj-fromobject', {
      spec: {
        references: [
          {
            fromObject: { apiVersion: 'v1', kind: 'ConfigMap', name: 'mobj-fromobject-source', fieldPath: 'data.key' },
            toFieldPath: 'spec.forProvider.manifest.data.key',
          },
        ],
      },
    }),
    unknownField('spec.references[0]', 'fromObject'),
  ),
  refused(
    'mobj-deletion-policy',
    'deletionPolicy on a namespaced Object (Crossplane v2 has managementPolicies only)',
    namespacedObject('mobj-deletion-policy', { spec: { deletionPolicy: 'Orphan' } }),
    unknownField('spec', 'deletionPolicy'),
  ),
  refused(
    'mobj-config-kind-enum',
    'providerConfigRef.kind Provider',
    namespacedObject('mobj-config-kind-enum', { providerConfigRef: { kind: 'Provider', name: REMOTE } }),
    /spec\.providerConfigRef\.kind: Unsupported value: "Provider": supported values: "ProviderConfig", "ClusterProviderConfig"/,
  ),
  refused(
    'mobj-propagation-enum',
    'deletionPropagationPolicy Cascade (a kubectl flag, not an API value)',
    namespacedObject('mobj-propagation-enum', { forProvider: { deletionPropagationPolicy: 'Cascade' } }),
    /spec\.forProvider\.deletionPropagationPolicy: Unsupported value: "Cascade": supported values: "Orphan", "Background", "Foreground"/,
  ),
  refused(
    'mobj-secret-other-namespace',
    'a connection Secret in another namespace (hostile: write into another tenant)',
    namespacedObject('mobj-secret-other-namespace', {
      spec: { writeConnectionSecretToRef: { name: 'mobj-secret-other-namespace', namespace: 'kube-system' } },
    }),
    unknownField('spec.writeConnectionSecretToRef', 'namespace'),
  ),
  explained(
    'mobj-cluster-config-missing',
    'a ClusterProviderConfig that does not exist',
    {
      apply: [
        namespacedObject('mobj-cluster-config-missing', {
          providerConfigRef: { kind: 'ClusterProviderConfig', name: 'mobj-cluster-config-missing-config' },
        }),
      ],
    },
    /cannot get ClusterProviderConfig "mobj-cluster-config-missing-config": not found/,
  ),
  explained(
    'mobj-config-missing',
    'a ProviderConfig that exists in no namespace, let alone this one',
    {
      apply: [
        namespacedObject('mobj-config-missing', { providerConfigRef: { kind: 'ProviderConfig', name: 'mobj-config-missing-config' } }),
      ],
    },
    new RegExp(`cannot get ProviderConfig "mobj-config-missing-config": not found in namespace ${NS}`),
  ),
  explained(
    'mobj-config-not-selected',
    "a ClusterProviderConfig whose namespaceSelector leaves this namespace out (hostile: another team's cluster)",
    {
      setup: [
        clusterProviderConfig('mobj-config-not-selected-config', {
          credentials: { source: 'Secret', secretRef: { namespace: 'crossplane-system', name: `${REMOTE}-kubeconfig`, key: 'kubeconfig' } },
          namespaceSelector: { matchLabels: { team: 'mobj-config-not-selected-team' } },
        }),
      ],
      apply: [
        namespacedObject('mobj-config-not-selected', {
          providerConfigRef: { kind: 'ClusterProviderConfig', name: 'mobj-config-not-selected-config' },
        }),
      ],
    },
    new RegExp(
      `ClusterProviderConfig mobj-config-not-selected-config may not be used from namespace ${NS}: the namespace's labels do not match its namespaceSelector`,
    ),
  ),
  explained(
    'mobj-kubeconfig-secret-missing',
    'a namespaced ProviderConfig whose kubeconfig Secret does not exist',
    {
      setup: [namespacedProviderConfig('mobj-kubeconfig-secret-missing-config', fromSecret('mobj-kubeconfig-secret-missing-kubeconfig'))],
      apply: [
        namespacedObject('mobj-kubeconfig-secret-missing', {
          providerConfigRef: { kind: 'ProviderConfig', name: 'mobj-kubeconfig-secret-missing-config' },
        }),
      ],
    },
    new RegExp(`cannot read the kubeconfig: key "kubeconfig" of Secret ${NS}/mobj-kubeconfig-secret-missing-kubeconfig .*not found`),
  ),
  explained(
    'mobj-kubeconfig-exec',
    "a tenant's own kubeconfig Secret that runs a command (hostile: code execution in the worker)",
    {
      setup: [
        kubeconfigSecret(
          'mobj-kubeconfig-exec-kubeconfig',
          kubeconfig(
            { server: UNREACHABLE_SERVER },
            { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'sh', args: ['-c', 'id'], interactiveMode: 'Never' } },
          ),
        ),
        namespacedProviderConfig('mobj-kubeconfig-exec-config', fromSecret('mobj-kubeconfig-exec-kubeconfig')),
      ],
      apply: [
        namespacedObject('mobj-kubeconfig-exec', { providerConfigRef: { kind: 'ProviderConfig', name: 'mobj-kubeconfig-exec-config' } }),
      ],
    },
    inlineOnly('users[u].exec'),
  ),
  explained(
    'mobj-kubeconfig-garbage',
    'a ClusterProviderConfig whose kubeconfig Secret holds garbage',
    {
      setup: [
        kubeconfigSecret('mobj-kubeconfig-garbage-kubeconfig', '\u0000\u0001 not a kubeconfig'),
        clusterProviderConfig('mobj-kubeconfig-garbage-config', { credentials: fromSecret('mobj-kubeconfig-garbage-kubeconfig') }),
      ],
      apply: [
        namespacedObject('mobj-kubeconfig-garbage', {
          providerConfigRef: { kind: 'ClusterProviderConfig', name: 'mobj-kubeconfig-garbage-config' },
        }),
      ],
    },
    /the kubeconfig in key "kubeconfig" of Secret .*mobj-kubeconfig-garbage-kubeconfig \(ClusterProviderConfig mobj-kubeconfig-garbage-config\) is not valid YAML or JSON/,
  ),
  explained(
    'mobj-injected-other-namespace',
    "InjectedIdentity from a namespaced ProviderConfig, writing into namespace default (hostile: act outside one's namespace)",
    {
      setup: [namespacedProviderConfig('mobj-injected-other-namespace-config', { source: 'InjectedIdentity' })],
      apply: [
        namespacedObject('mobj-injected-other-namespace', {
          manifest: configMap('mobj-injected-other-namespace', undefined, { namespace: 'default' }),
          providerConfigRef: { kind: 'ProviderConfig', name: 'mobj-injected-other-namespace-config' },
        }),
      ],
    },
    new RegExp(
      `reaches only namespace ${NS} of its cluster: ConfigMap default/mobj-injected-other-namespace is in namespace default; nothing was read or written`,
    ),
  ),
  explained(
    'mobj-injected-cluster-admin',
    'InjectedIdentity from a namespaced ProviderConfig, binding cluster-admin (hostile: escalate)',
    {
      setup: [namespacedProviderConfig('mobj-injected-cluster-admin-config', { source: 'InjectedIdentity' })],
      apply: [
        namespacedObject('mobj-injected-cluster-admin', {
          manifest: {
            apiVersion: 'rbac.authorization.k8s.io/v1',
            kind: 'ClusterRoleBinding',
            metadata: { name: 'mobj-injected-cluster-admin' },
            roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
            subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'mallory' }],
          },
          providerConfigRef: { kind: 'ProviderConfig', name: 'mobj-injected-cluster-admin-config' },
        }),
      ],
    },
    new RegExp(
      `reaches only namespace ${NS} of its cluster: ClusterRoleBinding mobj-injected-cluster-admin is cluster-scoped; nothing was read or written`,
    ),
  ),
  explained(
    'mobj-injected-not-granted',
    "InjectedIdentity in one's own namespace, with nothing granted to its ServiceAccount: the controller's rights are not lent",
    {
      setup: [namespacedProviderConfig('mobj-injected-not-granted-config', { source: 'InjectedIdentity' })],
      apply: [
        namespacedObject('mobj-injected-not-granted', {
          manifest: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'mobj-injected-not-granted-cm' }, data: { key: 'value' } },
          providerConfigRef: { kind: 'ProviderConfig', name: 'mobj-injected-not-granted-config' },
        }),
      ],
    },
    new RegExp(`forbidden: User "system:serviceaccount:${NS}:provider-kubernetes" cannot`),
  ),
  explained(
    'mobj-target-field-unknown',
    'a field the target kind does not have, in a namespaced Object',
    {
      apply: [
        namespacedObject('mobj-target-field-unknown', { manifest: { ...configMap('mobj-target-field-unknown'), spec: { replicas: 1 } } }),
      ],
    },
    /\.spec: field not declared in schema/,
  ),
];

// ---------------------------------------------------------------------------------------------
// ProviderConfigs and ClusterProviderConfigs: refused at admission
// ---------------------------------------------------------------------------------------------
const configs: BadInputCase[] = [
  refused(
    'pc-source-filesystem',
    "a ProviderConfig reading credentials from the worker's filesystem",
    legacyProviderConfig('pc-source-filesystem', { source: 'Filesystem' }),
    /Chronoplane reads credentials from a Secret \(a kubeconfig\) or uses InjectedIdentity/,
  ),
  refused(
    'pc-secret-without-ref',
    'source Secret without secretRef',
    legacyProviderConfig('pc-secret-without-ref', { source: 'Secret' }),
    /secretRef is required when source is Secret/,
  ),
  refused(
    'pc-source-enum',
    'a credentials source that does not exist',
    legacyProviderConfig('pc-source-enum', { source: 'Vault' }),
    /spec\.credentials\.source: Unsupported value: "Vault": supported values: "None", "Secret", "InjectedIdentity", "Environment", "Filesystem"/,
  ),
  refused(
    'pc-secret-key-empty',
    'a secretRef with an empty key',
    legacyProviderConfig('pc-secret-key-empty', { source: 'Secret', secretRef: secretRef('pc-secret-key-empty-kubeconfig', '') }),
    /spec\.credentials\.secretRef\.key: Invalid value: "": spec\.credentials\.secretRef\.key in body should be at least 1 chars long/,
  ),
  refused(
    'pc-cloud-identity',
    "an upstream cloud identity (GKE's) on a ProviderConfig",
    {
      ...legacyProviderConfig('pc-cloud-identity', fromSecret('pc-cloud-identity-kubeconfig')),
      spec: { credentials: fromSecret('pc-cloud-identity-kubeconfig'), identity: { type: 'GoogleApplicationCredentials' } },
    },
    /Chronoplane does not support cloud identities yet: put a complete kubeconfig in the Secret/,
  ),
  refused(
    'mpc-foreign-secret',
    "a namespaced ProviderConfig naming another namespace's kubeconfig Secret (hostile: use the platform's cluster credentials)",
    namespacedProviderConfig('mpc-foreign-secret', {
      source: 'Secret',
      secretRef: { namespace: 'crossplane-system', name: `${REMOTE}-kubeconfig`, key: 'kubeconfig' },
    }),
    new RegExp(`a ProviderConfig may only use a Secret in its own namespace \\(${NS}\\); crossplane-system is another tenant's`),
  ),
  refused(
    'mpc-source-environment',
    'a namespaced ProviderConfig with source Environment',
    namespacedProviderConfig('mpc-source-environment', { source: 'Environment', env: { name: 'KUBECONFIG' } }),
    /Chronoplane reads credentials from a Secret \(a kubeconfig\) or uses InjectedIdentity/,
  ),
  refused(
    'cpc-cloud-identity',
    'a ClusterProviderConfig with an Azure identity',
    clusterProviderConfig('cpc-cloud-identity', {
      credentials: fromSecret('cpc-cloud-identity-kubeconfig'),
      identity: {
        type: 'AzureServicePrincipalCredentials',
        source: 'Secret',
        secretRef: secretRef('cpc-cloud-identity-azure', 'credentials'),
      },
    }),
    /Chronoplane does not support cloud identities yet/,
  ),
  refused(
    'cpc-selector-in-without-values',
    'a namespaceSelector requirement In without values',
    clusterProviderConfig('cpc-selector-in-without-values', {
      credentials: fromSecret('cpc-selector-in-without-values-kubeconfig'),
      namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In' }] },
    }),
    /In and NotIn need values; Exists and DoesNotExist take none/,
  ),
];

// ---------------------------------------------------------------------------------------------
// ObservedObjectCollection, in both groups
// ---------------------------------------------------------------------------------------------
const collections: BadInputCase[] = [
  refused(
    'coll-selector-missing',
    'a collection without a selector',
    (() => {
      const c = collection('coll-selector-missing');
      const { selector: _selector, ...observeObjects } = (c.spec as { observeObjects: Record<string, unknown> }).observeObjects;
      return { ...c, spec: { ...(c.spec as object), observeObjects } };
    })(),
    requiredField('spec.observeObjects', 'selector'),
  ),
  refused(
    'coll-kind-empty',
    'a collection of the empty kind',
    collection('coll-kind-empty', { observeObjects: { kind: '' } }),
    /spec\.observeObjects\.kind: Invalid value: "": spec\.observeObjects\.kind in body should be at least 1 chars long/,
  ),
  refused(
    'coll-operator-enum',
    'a selector requirement with operator Contains',
    collection('coll-operator-enum', {
      observeObjects: { selector: { matchExpressions: [{ key: 'app', operator: 'Contains', values: ['x'] }] } },
    }),
    /operator: Unsupported value: "Contains": supported values: "In", "NotIn", "Exists", "DoesNotExist"/,
  ),
  refused(
    'mcoll-config-ref-untyped',
    "a namespaced collection's providerConfigRef without kind",
    collection('mcoll-config-ref-untyped', { namespaced: true, spec: { providerConfigRef: { name: REMOTE } } }),
    requiredField('spec.providerConfigRef', 'kind'),
  ),
  explained(
    'coll-kind-unserved',
    'a collection of a kind the target cluster does not serve',
    { apply: [collection('coll-kind-unserved', { observeObjects: { apiVersion: 'widgets.example.com/v1', kind: 'Widget' } })] },
    /Widget.*(does not serve this kind|Unrecognized API version and kind)/,
  ),
  explained(
    'coll-config-missing',
    'a collection naming a ProviderConfig that does not exist',
    { apply: [collection('coll-config-missing', { spec: { providerConfigRef: { name: 'coll-config-missing-config' } } })] },
    /cannot get ProviderConfig "coll-config-missing-config": not found/,
  ),
  explained(
    'mcoll-injected-cluster-scoped',
    'a namespaced collection of Namespaces through InjectedIdentity (hostile: list the whole cluster)',
    {
      setup: [namespacedProviderConfig('mcoll-injected-cluster-scoped-config', { source: 'InjectedIdentity' })],
      apply: [
        collection('mcoll-injected-cluster-scoped', {
          namespaced: true,
          observeObjects: { apiVersion: 'v1', kind: 'Namespace', namespace: undefined },
          spec: { providerConfigRef: { kind: 'ProviderConfig', name: 'mcoll-injected-cluster-scoped-config' } },
        }),
      ],
    },
    new RegExp(`reaches only namespace ${NS} of its cluster: Namespace \\(v1\\) is cluster-scoped; nothing was read`),
  ),
  explained(
    'coll-member-label-too-long',
    'an objectTemplate label value of 64 characters, which no member Object can carry',
    {
      setup: [
        legacyObject('coll-member-label-too-long-target', {
          manifest: configMap('coll-member-label-too-long-target', undefined, { labels: { [CASE_LABEL]: 'coll-member-label-too-long' } }),
        }),
      ],
      apply: [collection('coll-member-label-too-long', { spec: { objectTemplate: { metadata: { labels: { note: 'x'.repeat(64) } } } } })],
    },
    /metadata\.labels: Invalid value: "x{64}": must be no more than 63 characters/,
  ),
];

// ---------------------------------------------------------------------------------------------
// Seed 003's workloads: KubernetesApplication, KubernetesApplicationResource, KubernetesCluster
// ---------------------------------------------------------------------------------------------
const template = (name: string, fields: Record<string, unknown> = {}) => ({ ...configMapTemplate(name), ...fields });

/**
 * What a KubernetesApplication says of a resource that failed: its name, and where the reason is.
 * (The reason itself is in that KubernetesApplicationResource's Synced condition.)
 */
const failedResource = (resource: string) =>
  new RegExp(`KubernetesApplicationResources failed: ${resource} \\(see their Synced condition\\)`);

const workloads: BadInputCase[] = [
  explained(
    'app-no-cluster-matches',
    'a KubernetesApplication whose clusterSelector matches no KubernetesCluster',
    {
      apply: [
        application('app-no-cluster-matches', [template('app-no-cluster-matches-config')], {
          matchLabels: { pool: 'app-no-cluster-matches-pool' },
        }),
      ],
    },
    new RegExp(
      `no KubernetesCluster in namespace ${NS} matches clusterSelector pool=app-no-cluster-matches-pool; the application is scheduled as soon as one is registered`,
    ),
  ),
  refused(
    'app-template-unnamed',
    'a resource template without a name',
    application('app-template-unnamed', [{ metadata: {}, spec: { template: configMap('app-template-unnamed-config') } }]),
    requiredField('spec.resourceTemplates[0].metadata', 'name'),
  ),
  refused(
    'app-template-name-invalid',
    'a resource template name with capitals and an underscore',
    application('app-template-name-invalid', [template('App_Template_Name_Invalid')]),
    /spec\.resourceTemplates\[0\]\.metadata\.name: Invalid value: "App_Template_Name_Invalid": spec\.resourceTemplates\[0\]\.metadata\.name in body should match/,
  ),
  refused(
    'app-template-name-254',
    'a resource template name of 254 characters',
    application('app-template-name-254', [template(nameOfLength('app-template-name-254', 254))]),
    /spec\.resourceTemplates\[0\]\.metadata\.name: Too long: may not be (longer|more) than 253/,
  ),
  refused(
    'app-templates-duplicate',
    'two templates of the same name',
    application('app-templates-duplicate', [template('app-templates-duplicate-config'), template('app-templates-duplicate-config')]),
    /resourceTemplates\[\]\.metadata\.name must be unique: each names one KubernetesApplicationResource/,
  ),
  refused(
    'app-template-no-kind',
    "a template's object without kind",
    application('app-template-no-kind', [
      {
        metadata: { name: 'app-template-no-kind-config' },
        spec: { template: { apiVersion: 'v1', metadata: { name: 'app-template-no-kind-config', namespace: TARGET_NAMESPACE } } },
      },
    ]),
    requiredField('spec.resourceTemplates[0].spec.template', 'kind'),
  ),
  refused(
    'app-template-no-apiversion',
    "a template's object without apiVersion",
    application('app-template-no-apiversion', [
      {
        metadata: { name: 'app-template-no-apiversion-config' },
        spec: { template: { kind: 'ConfigMap', metadata: { name: 'app-template-no-apiversion-config', namespace: TARGET_NAMESPACE } } },
      },
    ]),
    requiredField('spec.resourceTemplates[0].spec.template', 'apiVersion'),
  ),
  refused(
    'app-template-object-unnamed',
    "a template's object without metadata.name",
    application('app-template-object-unnamed', [
      {
        metadata: { name: 'app-template-object-unnamed-config' },
        spec: { template: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: TARGET_NAMESPACE } } },
      },
    ]),
    requiredField('spec.resourceTemplates[0].spec.template.metadata', 'name'),
  ),
  refused(
    'app-templates-over-limit',
    'an application of 129 templates, one past the limit',
    application(
      'app-templates-over-limit',
      Array.from({ length: 129 }, (_, i) => template(`app-templates-over-limit-${i}`)),
    ),
    /spec\.resourceTemplates: Too many: 129: must have at most 128 items/,
  ),
  refused(
    'app-selector-in-without-values',
    'a clusterSelector requirement In without values',
    application('app-selector-in-without-values', [template('app-selector-in-without-values-config')], {
      matchExpressions: [{ key: 'pool', operator: 'In' }],
    }),
    /In and NotIn need values; Exists and DoesNotExist take none/,
  ),
  refused(
    'app-template-label-too-long',
    'a template label value of 64 characters',
    application('app-template-label-too-long', [
      {
        metadata: { name: 'app-template-label-too-long-config', labels: { note: 'x'.repeat(64) } },
        spec: { template: configMap('app-template-label-too-long-config') },
      },
    ]),
    /spec\.resourceTemplates\[0\]\.metadata\.labels\.note: Too long: may not be (longer|more) than 63/,
  ),
  {
    name: 'app-selector-changed',
    mistake: "changing a KubernetesApplication's clusterSelector to move it",
    setup: [
      application('app-selector-changed', [template('app-selector-changed-config')], { matchLabels: { pool: 'app-selector-changed-a' } }),
    ],
    apply: [
      application('app-selector-changed', [template('app-selector-changed-config')], { matchLabels: { pool: 'app-selector-changed-b' } }),
    ],
    expect: {
      refused: {
        message: /spec\.clusterSelector cannot be changed: delete and recreate the KubernetesApplication to schedule it elsewhere/,
      },
    },
  },
  explained(
    'app-template-kind-unserved',
    'a template of a kind the cluster does not serve',
    applicationOnCluster('app-template-kind-unserved', remoteKubeconfig(), [
      {
        metadata: { name: 'app-template-kind-unserved-widget' },
        spec: {
          template: {
            apiVersion: 'widgets.example.com/v1',
            kind: 'Widget',
            metadata: { name: 'app-template-kind-unserved-widget', namespace: TARGET_NAMESPACE },
          },
        },
      },
    ]),
    failedResource('app-template-kind-unserved-widget'),
    { type: 'Ready' },
  ),
  explained(
    'app-template-field-unknown',
    "a template with a field the cluster's schema does not have",
    applicationOnCluster('app-template-field-unknown', remoteKubeconfig(), [
      {
        metadata: { name: 'app-template-field-unknown-config' },
        spec: { template: { ...configMap('app-template-field-unknown-config'), dta: { key: 'value' } } },
      },
    ]),
    failedResource('app-template-field-unknown-config'),
    { type: 'Ready' },
  ),
  explained(
    'app-secret-missing',
    'a template needing a connection Secret that does not exist',
    applicationOnCluster('app-secret-missing', remoteKubeconfig(), [
      {
        ...template('app-secret-missing-config'),
        spec: { template: configMap('app-secret-missing-config'), secrets: [{ name: 'app-secret-missing-sql' }] },
      },
    ]),
    failedResource('app-secret-missing-config'),
    { type: 'Ready' },
  ),
  explained(
    'app-cluster-secret-missing',
    'a KubernetesCluster whose kubeconfig Secret does not exist',
    applicationOnCluster('app-cluster-secret-missing', undefined),
    failedResource('app-cluster-secret-missing-config'),
    { type: 'Ready' },
  ),
  explained(
    'app-cluster-kubeconfig-garbage',
    "a KubernetesCluster whose Secret's kubeconfig is not YAML",
    applicationOnCluster('app-cluster-kubeconfig-garbage', '{{{ not: yaml: ['),
    failedResource('app-cluster-kubeconfig-garbage-config'),
    { type: 'Ready' },
  ),
  explained(
    'app-cluster-unreachable',
    'a KubernetesCluster whose server does not answer',
    applicationOnCluster(
      'app-cluster-unreachable',
      kubeconfig({ server: UNREACHABLE_SERVER, 'insecure-skip-tls-verify': true }, { token: 'token' }),
    ),
    failedResource('app-cluster-unreachable-config'),
    { type: 'Ready' },
  ),
  explained(
    'app-cluster-kubeconfig-exec',
    'a KubernetesCluster whose kubeconfig runs a command (hostile: code execution in the worker)',
    applicationOnCluster(
      'app-cluster-kubeconfig-exec',
      kubeconfig(
        { server: UNREACHABLE_SERVER },
        { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'sh', args: ['-c', 'id'], interactiveMode: 'Never' } },
      ),
    ),
    failedResource('app-cluster-kubeconfig-exec-config'),
    { type: 'Ready' },
  ),
  {
    name: 'app-cluster-deleted-first',
    mistake: 'unregistering the KubernetesCluster before deleting the application on it, whose only template the cluster refused',
    ...applicationOnCluster('app-cluster-deleted-first', remoteKubeconfig(), [
      {
        metadata: { name: 'app-cluster-deleted-first-config' },
        spec: { template: { ...configMap('app-cluster-deleted-first-config'), dta: { key: 'value' } } },
      },
    ]),
    // The cluster goes first, as `kubectl delete -f dir/` may take it: nothing of the resource is
    // in the cluster (its every apply was refused), so the application still deletes.
    deletion: { first: [{ kind: 'kubernetescluster', name: 'app-cluster-deleted-first-cluster' }] },
    expect: { condition: { type: 'Ready', status: 'False', message: failedResource('app-cluster-deleted-first-config') } },
  },
  refused(
    'kc-secret-ref-missing',
    'a KubernetesCluster that names no connection Secret',
    { ...kubernetesCluster('kc-secret-ref-missing', 'kc-secret-ref-missing'), spec: {} },
    requiredField('spec', 'writeConnectionSecretToRef'),
  ),
  refused(
    'kc-secret-other-namespace',
    "a KubernetesCluster naming another namespace's kubeconfig Secret (hostile: use the platform's cluster)",
    {
      ...kubernetesCluster('kc-secret-other-namespace', 'kc-secret-other-namespace'),
      spec: { writeConnectionSecretToRef: { name: `${REMOTE}-kubeconfig`, namespace: 'crossplane-system' } },
    },
    unknownField('spec.writeConnectionSecretToRef', 'namespace'),
  ),
  explained(
    'kar-without-application',
    'a KubernetesApplicationResource made by hand, controlled by no application',
    {
      apply: [
        {
          apiVersion: WORKLOAD,
          kind: 'KubernetesApplicationResource',
          metadata: { name: 'kar-without-application' },
          spec: { template: configMap('kar-without-application') },
        },
      ],
    },
    new RegExp(`not scheduled: KubernetesApplicationResource ${NS}/kar-without-application is not controlled by a KubernetesApplication`),
  ),
  refused(
    'kar-secret-other-namespace',
    "a KubernetesApplicationResource copying another namespace's Secret (hostile)",
    {
      apiVersion: WORKLOAD,
      kind: 'KubernetesApplicationResource',
      metadata: { name: 'kar-secret-other-namespace' },
      spec: {
        template: configMap('kar-secret-other-namespace'),
        secrets: [{ name: `${REMOTE}-kubeconfig`, namespace: 'crossplane-system' }],
      },
    },
    unknownField('spec.secrets[0]', 'namespace'),
  ),
  {
    name: 'kar-template-renamed',
    mistake: "renaming a KubernetesApplicationResource's object",
    setup: [
      {
        apiVersion: WORKLOAD,
        kind: 'KubernetesApplicationResource',
        metadata: { name: 'kar-template-renamed' },
        spec: { template: configMap('kar-template-renamed') },
      },
    ],
    apply: [
      {
        apiVersion: WORKLOAD,
        kind: 'KubernetesApplicationResource',
        metadata: { name: 'kar-template-renamed' },
        spec: { template: configMap('kar-template-renamed-other') },
      },
    ],
    expect: {
      refused: {
        message: /spec\.template\.metadata\.name cannot be changed: delete and recreate the KubernetesApplicationResource to change it/,
      },
    },
  },
];

export const kubernetesCases: BadInputCase[] = [
  ...legacyAdmission,
  ...identityEdits,
  ...legacyConditions,
  ...legacyLimits,
  ...namespaced,
  ...configs,
  ...collections,
  ...workloads,
];
