import { describe, expect, it } from 'vitest';
import { unservedKind } from './served-kinds';

const key = (group: string, kind: string) => ({ group, kind, namespace: 'team-a', name: 'main' });

describe('unservedKind', () => {
  it('refuses a kind our own group does not serve, suggesting the one that differs only in case', () => {
    expect(unservedKind(key('ec2.aws.chronoplane.io', 'Vpc'))).toBe(
      'reference to Vpc team-a/main: ec2.aws.chronoplane.io serves no kind Vpc (kinds are case-sensitive: did you mean VPC?)',
    );
    expect(unservedKind(key('ec2.aws.chronoplane.io', 'LoadBalancer'))).toMatch(/serves no kind LoadBalancer; it serves .*Subnet.*VPC/);
  });

  it('lets through the kinds we serve, managed or not, and every kind of another group, which may yet be installed', () => {
    expect(unservedKind(key('ec2.aws.chronoplane.io', 'VPC'))).toBeUndefined();
    expect(unservedKind(key('kubernetes.crossplane.io', 'ProviderConfig'))).toBeUndefined();
    expect(unservedKind(key('example.org', 'Widget'))).toBeUndefined();
    expect(unservedKind(key('', 'ConfigMap'))).toBeUndefined();
  });
});
