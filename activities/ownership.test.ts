import { describe, expect, it } from 'vitest';
import type { ResourceRef } from '#core/managed-kind';
import { ownershipRefusal } from './ownership';

const kinds = [
  { group: 'ec2.aws.chronoplane.io', kind: 'VPC', singular: 'vpc' },
  { group: 'kubernetes.crossplane.io', kind: 'Object', singular: 'object' },
];
const vpcClaim = { uid: 'u-a', kind: 'vpc.ec2.aws.chronoplane.io', namespace: 'team-a', name: 'main' };

/** An owner lookup over these objects, recording what it was asked. */
function lookup(objects: Record<string, string>) {
  const asked: ResourceRef[] = [];
  const exists = async (owner: ResourceRef, uid: string) => {
    asked.push(owner);
    return objects[`${owner.group}/${owner.kind}/${owner.namespace}/${owner.name}`] === uid;
  };
  return { asked, exists };
}

describe('ownershipRefusal', () => {
  it('refuses while the owner exists, naming its kind, namespace, name and uid', async () => {
    const { asked, exists } = lookup({ 'ec2.aws.chronoplane.io/VPC/team-a/main': 'u-a' });
    expect(await ownershipRefusal({ kind: 'VPC' }, 'vpc-1', vpcClaim, kinds, exists)).toBe(
      'VPC vpc-1 belongs to VPC team-a/main (uid u-a): it is not adopted',
    );
    expect(asked).toEqual([{ group: 'ec2.aws.chronoplane.io', kind: 'VPC', namespace: 'team-a', name: 'main' }]);
  });

  it.each([
    ['no object of that name', {}],
    ['an object of that name with another uid (deleted and made again)', { 'ec2.aws.chronoplane.io/VPC/team-a/main': 'u-new' }],
  ])('lets it be adopted when the owner is gone: %s', async (_case, objects) => {
    expect(await ownershipRefusal({ kind: 'VPC' }, 'vpc-1', vpcClaim, kinds, lookup(objects).exists)).toBeUndefined();
  });

  it('lets it be adopted when the owner is of a kind not served here, without asking', async () => {
    const { asked, exists } = lookup({});
    const claim = { ...vpcClaim, kind: 'vpc.ec2.aws.upbound.io' };
    expect(await ownershipRefusal({ kind: 'VPC' }, 'vpc-1', claim, kinds, exists)).toBeUndefined();
    expect(asked).toEqual([]);
  });

  it('names a cluster-scoped owner without a namespace', async () => {
    const { exists } = lookup({ 'kubernetes.crossplane.io/Object//cm': 'u-o' });
    const claim = { uid: 'u-o', kind: 'object.kubernetes.crossplane.io', namespace: '', name: 'cm' };
    expect(await ownershipRefusal({ kind: 'Object' }, 'cm', claim, kinds, exists)).toBe(
      'Object cm belongs to Object cm (uid u-o): it is not adopted',
    );
  });

  it('refuses a claim that names no owner, which nothing can check', async () => {
    const { asked, exists } = lookup({});
    expect(await ownershipRefusal({ kind: 'VPC' }, 'vpc-1', { uid: 'u-x', namespace: 'team-a' }, kinds, exists)).toBe(
      'VPC vpc-1 belongs to another object (uid u-x) that it does not name: it is not adopted',
    );
    expect(asked).toEqual([]);
  });
});
