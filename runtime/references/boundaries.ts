// Namespaces are tenant boundaries: a namespaced object's references resolve only inside its own
// namespace. Admission refuses anything else (generate/admission.ts); this is the same rule again at
// resolution, for objects admitted before the policy existed or a CRD applied by hand. A
// dependency that crosses is an error and is never read. Cluster-scoped objects (the legacy
// kubernetes.crossplane.io Object), which only cluster admins create, may name any namespace.
import { describeKey, type Dependency } from './dependencies';

interface NamespaceBoundary {
  /** The dependencies that may be read and resolved. */
  inside: Dependency[];
  /** One message per dependency that crosses into another namespace. */
  errors: string[];
}

/** `namespace` is the object's own; '' for a cluster-scoped object, which may name any namespace. */
export function withinNamespace(namespace: string, dependencies: readonly Dependency[]): NamespaceBoundary {
  const out: NamespaceBoundary = { inside: [], errors: [] };
  for (const d of dependencies) {
    const target = d.type === 'selector' ? { ...d, name: '' } : d.target;
    if (namespace === '' || target.namespace === namespace) out.inside.push(d);
    else
      out.errors.push(
        `references may only name objects in namespace ${namespace}: ${d.type === 'selector' ? `a ${d.kind} selector` : describeKey(target)} is in ${target.namespace || 'no namespace (cluster scope)'}`,
      );
  }
  return out;
}
