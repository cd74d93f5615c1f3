// What an object depends on, read from its spec alone: typed references (`vpcIdRef`,
// `securityGroupIdRefs`, selectors) from its kind's declarations, and generic references
// (`spec.references[]`). Pure, so the resolver, the watcher's wake-up index, the deletion guard
// and cycle detection all see the same graph.
import type { ReferencePolicy, ReferenceSelector, TypedReference } from '#core/references/fields';
import type { ManagedResource } from '#core/managed-resource';
import { refFieldOf, selectorFieldOf, type ReferenceDeclaration } from '#core/references/declaration';

/** An object's identity; `namespace` is '' for cluster-scoped objects. */
export interface ObjectKey {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

/** A target named by apiVersion, as generic references name it. */
export interface VersionedKey extends ObjectKey {
  apiVersion: string;
}

export type Dependency =
  /** `<field>Ref` or one of `<field>Refs`: blocking; takes the target's external name (or fromFieldPath). */
  | { type: 'ref'; declaration: ReferenceDeclaration; target: ObjectKey; policy?: ReferencePolicy }
  /** `<field>Selector` while no Ref is set: selects targets by label, then becomes Refs. */
  | { type: 'selector'; declaration: ReferenceDeclaration; group: string; kind: string; namespace: string; selector: ReferenceSelector }
  /** `fromObject` / `patchesFrom`: blocking; copies fieldPath of the target to toFieldPath (from the object's root). */
  | { type: 'patch'; target: VersionedKey; fieldPath: string; toFieldPath: string; form: 'fromObject' | 'patchesFrom' }
  /** `dependsOn`: non-blocking; only orders deletion. */
  | { type: 'dependsOn'; target: VersionedKey };

/** Where a kind's payload lives; patchesFrom's toFieldPath counts from here unless the kind says otherwise. */
const PAYLOAD_PATH = 'spec.forProvider';

export function dependenciesOf(
  kind: { references?: readonly ReferenceDeclaration[]; compatibleApi?: { patchRoot?: string } },
  mr: Pick<ManagedResource, 'metadata' | 'spec'>,
): Dependency[] {
  const patchRoot = kind.compatibleApi?.patchRoot ?? PAYLOAD_PATH;
  const namespace = mr.metadata.namespace ?? '';
  const forProvider = (mr.spec.forProvider ?? {}) as Record<string, unknown>;
  const out: Dependency[] = [];
  for (const declaration of kind.references ?? []) {
    const { group, kind: targetKind } = declaration.to;
    const refs = declaredRefs(forProvider[refFieldOf(declaration)], declaration);
    const selector = forProvider[selectorFieldOf(declaration)] as ReferenceSelector | undefined;
    if (refs.length > 0) {
      for (const ref of refs) {
        out.push({ type: 'ref', declaration, target: { group, kind: targetKind, namespace, name: ref.name }, policy: ref.policy });
      }
    } else if (selector) {
      out.push({ type: 'selector', declaration, group, kind: targetKind, namespace, selector });
    }
  }
  for (const reference of mr.spec.references ?? []) {
    const source = reference.fromObject ?? reference.patchesFrom;
    if (source) {
      const form = reference.fromObject ? 'fromObject' : 'patchesFrom';
      const relative = reference.toFieldPath ?? source.fieldPath;
      out.push({
        type: 'patch',
        target: versionedKey(source, namespace),
        fieldPath: source.fieldPath,
        toFieldPath: form === 'fromObject' ? relative : `${patchRoot}${relative.startsWith('[') ? '' : '.'}${relative}`,
        form,
      });
    } else if (reference.dependsOn) {
      out.push({ type: 'dependsOn', target: versionedKey(reference.dependsOn, namespace) });
    }
  }
  return out;
}

/** The objects an object names directly (selectors name none until they have selected). */
export function namedTargets(dependencies: readonly Dependency[]): ObjectKey[] {
  const seen = new Map<string, ObjectKey>();
  for (const d of dependencies) if (d.type !== 'selector') seen.set(keyOf(d.target), plainKey(d.target));
  return [...seen.values()];
}

/** `VPC.ec2.aws.chronoplane.io/team-a/main`: the same form as a workflow id, readable in messages. */
export function keyOf(key: ObjectKey): string {
  return `${key.kind}.${key.group || 'core'}/${key.namespace}/${key.name}`;
}

export function parseKey(text: string): ObjectKey | undefined {
  const match = /^([^./]+)\.([^/]+)\/([^/]*)\/([^/]+)$/.exec(text);
  if (!match) return undefined;
  const [, kind, group, namespace, name] = match;
  return { kind: kind!, group: group === 'core' ? '' : group!, namespace: namespace!, name: name! };
}

/** `VPC team-a/main`, or `Namespace prod` for a cluster-scoped object: for conditions and events. */
export function describeKey(key: ObjectKey): string {
  return `${key.kind} ${key.namespace ? `${key.namespace}/` : ''}${key.name}`;
}

export function groupOf(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? '' : apiVersion.slice(0, slash);
}

function versionedKey(source: { apiVersion: string; kind: string; name: string; namespace?: string }, namespace: string): VersionedKey {
  return {
    apiVersion: source.apiVersion,
    group: groupOf(source.apiVersion),
    kind: source.kind,
    namespace: source.namespace ?? namespace,
    name: source.name,
  };
}

const plainKey = ({ group, kind, namespace, name }: ObjectKey): ObjectKey => ({ group, kind, namespace, name });

function declaredRefs(value: unknown, declaration: ReferenceDeclaration): TypedReference[] {
  if (declaration.list) return Array.isArray(value) ? (value as TypedReference[]).filter((r) => r?.name) : [];
  const ref = value as TypedReference | undefined;
  return ref?.name ? [ref] : [];
}
