// One owner per external resource. An external resource records the managed resource that owns
// it (for EC2: the crossplane-* tags and the chronoplane.io/uid tag). While that owner exists,
// no other object adopts, updates, tags or deletes it: crossplane.io/external-name adopts only
// what nobody here owns, which is what the annotation is for (importing, or taking over what an
// object deleted with deletionPolicy Orphan left behind). The provider reports a claim only
// when the uid is not the observed object's own, so a settled resource pays nothing for this.
import type { ExternalClaim } from '#core/external-client';
import type { KindApi, ResourceRef } from '#core/managed-kind';

/** Says whether an object of this identity exists now and has this uid. */
type OwnerLookup = (owner: ResourceRef, uid: string) => Promise<boolean>;

/**
 * Why `observed` may not act on its external resource (`externalName`), or undefined when it
 * may: the owner the resource names is gone (no such object, or one with another uid, or a
 * kind this control plane does not serve). A claim that names no owner cannot be checked, so
 * it is refused: removing the uid tag at the provider is then the owner's decision to make.
 */
export async function ownershipRefusal(
  observed: Pick<ResourceRef, 'kind'>,
  externalName: string | undefined,
  claim: ExternalClaim,
  kinds: readonly Pick<KindApi, 'group' | 'kind' | 'singular'>[],
  exists: OwnerLookup,
): Promise<string | undefined> {
  const resource = `${observed.kind} ${externalName ?? '(unnamed)'}`;
  const { kind, namespace, name } = claim;
  if (kind === undefined || namespace === undefined || name === undefined) {
    return `${resource} belongs to another object (uid ${claim.uid}) that it does not name: it is not adopted`;
  }
  const api = kinds.find((k) => `${k.singular}.${k.group}` === kind);
  if (!api) return undefined; // no object of a kind not served here can own it
  const owner: ResourceRef = { group: api.group, kind: api.kind, namespace, name };
  if (!(await exists(owner, claim.uid))) return undefined;
  return `${resource} belongs to ${api.kind} ${namespace ? `${namespace}/` : ''}${name} (uid ${claim.uid}): it is not adopted`;
}
