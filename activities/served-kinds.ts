// Which kinds the API groups Chronoplane installs serve. A reference to a kind in one of those
// groups that none of our CRDs defines (`Vpc` for `VPC`, say) can never resolve: our CRDs are
// installed together, so no later install will bring it. It is an error to show, not something
// to wait for. A kind of any other group may still come (its CRD installed later), so a
// reference to it waits.
import { allCrds } from '#providers/all-crds';
import type { ObjectKey } from '#runtime/references/dependencies';
import { describeKey } from '#runtime/references/dependencies';

let served: Map<string, string[]> | undefined;

/** group → the kinds our CRDs define in it, built once. */
function servedKinds(): Map<string, string[]> {
  if (served) return served;
  served = new Map();
  for (const crd of allCrds()) {
    const kinds = served.get(crd.spec.group) ?? [];
    kinds.push(crd.spec.names.kind);
    served.set(crd.spec.group, kinds);
  }
  return served;
}

/** The refusal for a target whose kind our own group does not serve; undefined for any other. */
export function unservedKind(target: ObjectKey): string | undefined {
  const kinds = servedKinds().get(target.group);
  if (!kinds || kinds.includes(target.kind)) return undefined;
  const sameButCase = kinds.find((k) => k.toLowerCase() === target.kind.toLowerCase());
  return (
    `reference to ${describeKey(target)}: ${target.group} serves no kind ${target.kind}` +
    (sameButCase ? ` (kinds are case-sensitive: did you mean ${sameButCase}?)` : `; it serves ${[...kinds].sort().join(', ')}`)
  );
}
