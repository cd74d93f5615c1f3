// Tenancy rules that a CRD's own CEL cannot state, because they compare a field with the
// object's namespace (metadata is out of a CRD rule's reach): ValidatingAdmissionPolicies,
// generated from the registry and the CRD list like the CRDs themselves (`npm run gen` writes
// deploy/admission/). Resolution checks the same rules again (runtime/references/boundaries.ts)
// for objects admitted before a policy existed.
import { allCrds } from '#providers/all-crds';
import { managedKinds } from '#providers/registry';
import { isClusterScoped } from '#core/managed-kind';
import { EXTERNAL_NAME } from '#core/annotations';
import { OBJECT_PATCH_ROOT } from '#providers/kubernetes/object/schema';

const API_VERSION = 'admissionregistration.k8s.io/v1';
const LABELS = { 'app.kubernetes.io/part-of': 'chronoplane' };

export const REFERENCE_POLICY_NAME = 'references.chronoplane.io';
export const PROVIDER_CONFIG_POLICY_NAME = 'providerconfig-credentials.chronoplane.io';
const OBJECT_TARGET_NAME_POLICY_NAME = 'object-target-name.chronoplane.io';

/** The start of the refusal a namespaced object with a cross-namespace reference gets. */
export const CROSS_NAMESPACE_REFUSAL = "a reference may only name objects in the object's own namespace";

/** A CEL string literal. */
const celString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

interface Resource {
  group: string;
  plural: string;
}

/**
 * An object being deleted is never refused: removing a finalizer must always go through, or a
 * rule could keep an object alive forever.
 */
const NOT_BEING_DELETED = { name: 'not-being-deleted', expression: '!has(object.metadata.deletionTimestamp)' };

/** The namespaces other than its own that a generic reference of `o` names, per form. */
const foreignNamespacesOf = (o: string) =>
  ['fromObject', 'patchesFrom', 'dependsOn']
    .map(
      (form) =>
        `${o}.spec.references.filter(r, has(r.${form}) && has(r.${form}.namespace) && r.${form}.namespace != ${o}.metadata.namespace).map(r, r.${form}.namespace)`,
    )
    .join(' + ');

/**
 * A namespaced managed object's generic references (fromObject, patchesFrom, dependsOn) name
 * only its own namespace. Typed references and selectors have no namespace field: they always
 * stay inside. An update that leaves the references as they were is let through, so an object
 * admitted before this policy can still get its finalizer, marks and resolved values (resolution
 * reports the reference itself).
 */
function referencePolicy(resources: readonly Resource[]) {
  return policy(REFERENCE_POLICY_NAME, resources, {
    variables: [
      {
        name: 'unchanged',
        expression:
          "request.operation == 'UPDATE' && has(oldObject.spec) && has(oldObject.spec.references) && has(object.spec) && has(object.spec.references) && oldObject.spec.references == object.spec.references",
      },
      {
        name: 'foreignNamespaces',
        expression: `has(object.spec) && has(object.spec.references) ? ${foreignNamespacesOf('object')} : []`,
      },
    ],
    validations: [
      {
        expression: 'variables.unchanged || size(variables.foreignNamespaces) == 0',
        messageExpression: `${celString(`${CROSS_NAMESPACE_REFUSAL} (`)} + object.metadata.namespace + '); ' + variables.foreignNamespaces[0] + ${celString(" is another tenant's")}`,
        reason: 'Forbidden',
      },
    ],
  });
}

/**
 * A namespaced ProviderConfig's credentials Secret (and identity Secret, where the kind has one)
 * is in its own namespace; only a ClusterProviderConfig, which only cluster admins create, may
 * name another.
 */
function providerConfigPolicy(resources: readonly Resource[]) {
  const secretNamespace = (field: string) =>
    `has(object.spec) && has(object.spec.${field}) && has(object.spec.${field}.secretRef) && has(object.spec.${field}.secretRef.namespace) && object.spec.${field}.secretRef.namespace != object.metadata.namespace ? [object.spec.${field}.secretRef.namespace] : []`;
  return policy(PROVIDER_CONFIG_POLICY_NAME, resources, {
    variables: [{ name: 'foreignNamespaces', expression: `(${secretNamespace('credentials')}) + (${secretNamespace('identity')})` }],
    validations: [
      {
        expression: 'size(variables.foreignNamespaces) == 0',
        messageExpression: `'a ProviderConfig may only use a Secret in its own namespace (' + object.metadata.namespace + '); ' + variables.foreignNamespaces[0] + ${celString(" is another tenant's (a ClusterProviderConfig, which only cluster admins create, may name any namespace)")}`,
        reason: 'Forbidden',
      },
    ],
  });
}

/**
 * An Object whose manifest has no name makes its target under the Object's own name, and
 * records it as its external name. Adding a different name by hand afterwards would make
 * another object and leave that one behind, unmanaged. The CRD's own rules keep a name once it
 * is set, but cannot tell a name added before the target was made (a reference or a composition
 * filling it in, which must work) from one added after: only the external-name annotation tells,
 * and a CRD rule on the manifest cannot read metadata. This policy can.
 */
function objectTargetNamePolicy(resources: readonly Resource[]) {
  const name = (o: string) =>
    `has(${o}.spec) && has(${o}.spec.forProvider) && has(${o}.spec.forProvider.manifest) && has(${o}.spec.forProvider.manifest.metadata) && has(${o}.spec.forProvider.manifest.metadata.name) ? ${o}.spec.forProvider.manifest.metadata.name : ''`;
  const externalName = `oldObject.metadata.annotations[${celString(EXTERNAL_NAME)}]`;
  return policy(OBJECT_TARGET_NAME_POLICY_NAME, resources, {
    variables: [
      {
        name: 'made',
        expression: `request.operation == 'UPDATE' && has(oldObject.metadata.annotations) && ${celString(EXTERNAL_NAME)} in oldObject.metadata.annotations`,
      },
      { name: 'oldName', expression: name('oldObject') },
      { name: 'newName', expression: name('object') },
    ],
    validations: [
      {
        expression: `!variables.made || variables.oldName != '' || variables.newName == '' || variables.newName == ${externalName}`,
        messageExpression:
          `'spec.forProvider.manifest.metadata.name cannot be set to ' + variables.newName + ': the target was made as ' + ${externalName} + ` +
          celString(
            " (the Object's name); another name would make another object and leave that one behind, unmanaged; delete and recreate the Object to change it",
          ),
        reason: 'Invalid',
      },
    ],
  });
}

function policy(
  name: string,
  resources: readonly Resource[],
  rules: { variables: { name: string; expression: string }[]; validations: Record<string, string>[] },
) {
  const groups = [...new Set(resources.map((r) => r.group))].sort();
  return {
    apiVersion: API_VERSION,
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name, labels: LABELS },
    spec: {
      failurePolicy: 'Fail',
      matchConstraints: {
        resourceRules: groups.map((group) => ({
          apiGroups: [group],
          apiVersions: ['*'],
          operations: ['CREATE', 'UPDATE'],
          resources: resources
            .filter((r) => r.group === group)
            .map((r) => r.plural)
            .sort(),
        })),
      },
      matchConditions: [NOT_BEING_DELETED],
      ...rules,
    },
  };
}

function bindingFor(policyName: string) {
  return {
    apiVersion: API_VERSION,
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name: policyName, labels: LABELS },
    spec: { policyName, validationActions: ['Deny'] },
  };
}

/** Every namespaced managed kind (cluster-scoped ones, such as the legacy Object, may name any namespace). */
const namespacedManagedResources = (): Resource[] =>
  managedKinds.filter((k) => !isClusterScoped(k.api)).map((k) => ({ group: k.api.group, plural: k.api.plural }));

/** Every namespaced ProviderConfig kind we serve, from the CRD list. */
const namespacedProviderConfigs = (): Resource[] =>
  allCrds()
    .filter((c) => c.spec.names.kind === 'ProviderConfig' && c.spec.scope === 'Namespaced')
    .map((c) => ({ group: c.spec.group, plural: c.spec.names.plural }));

/** Kinds whose manifest names an object in a target cluster (provider-kubernetes' Object, both groups). */
const manifestResources = (): Resource[] =>
  managedKinds.filter((k) => k.compatibleApi?.patchRoot === OBJECT_PATCH_ROOT).map((k) => ({ group: k.api.group, plural: k.api.plural }));

/** File name → the objects it holds: each policy with its binding. */
export function admissionPolicies(): Record<string, object[]> {
  const out: Record<string, object[]> = {
    'references.yaml': [referencePolicy(namespacedManagedResources()), bindingFor(REFERENCE_POLICY_NAME)],
    'object-target-name.yaml': [objectTargetNamePolicy(manifestResources()), bindingFor(OBJECT_TARGET_NAME_POLICY_NAME)],
  };
  const providerConfigs = namespacedProviderConfigs();
  if (providerConfigs.length > 0) {
    out['providerconfig-credentials.yaml'] = [providerConfigPolicy(providerConfigs), bindingFor(PROVIDER_CONFIG_POLICY_NAME)];
  }
  return out;
}
