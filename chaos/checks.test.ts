import { describe, expect, it } from 'vitest';
import { extraResources, oneExternalEach, type Ec2Content, type ObservedObject } from './checks';

const object = (kind: string, name: string, uid: string, forProvider: Record<string, unknown> = {}, ready = true): ObservedObject => ({
  kind,
  name,
  uid,
  ready,
  synced: ready,
  deleting: false,
  forProvider,
  conditions: '',
});

const route = object('Route', 'public-default', 'u-route', {
  routeTableId: 'rtb-1',
  destinationCidrBlock: '0.0.0.0/0',
  gatewayId: 'igw-1',
});
const association = object('RouteTableAssociation', 'public-a', 'u-rta', { routeTableId: 'rtb-1', subnetId: 'subnet-1' });
const https = object('SecurityGroupRule', 'web-https', 'u-https', {
  securityGroupId: 'sg-1',
  type: 'ingress',
  ipProtocol: 'tcp',
  fromPort: 443,
  toPort: 443,
  cidrIpv4: '0.0.0.0/0',
});
const ssh = object('SecurityGroupRule', 'web-ssh', 'u-ssh', {
  securityGroupId: 'sg-1',
  type: 'ingress',
  ipProtocol: 'tcp',
  fromPort: 22,
  toPort: 22,
  referencedGroupId: 'sg-2',
});

/** One of each, as a round that went well leaves it. */
function healthy(): Ec2Content {
  return {
    tagged: [
      { kind: 'VPC', id: 'vpc-1', uid: 'u-vpc' },
      { kind: 'RouteTable', id: 'rtb-1', uid: 'u-rtb' },
      { kind: 'SecurityGroup', id: 'sg-1', uid: 'u-sg' },
    ],
    routeTables: [
      {
        id: 'rtb-1',
        routes: [
          { destination: '10.20.0.0/16', local: true },
          { destination: '0.0.0.0/0', local: false },
        ],
        associations: [{ id: 'rtbassoc-1', subnetId: 'subnet-1', main: false }],
      },
    ],
    rules: [
      { id: 'sgr-egress', groupId: 'sg-1', egress: true, protocol: '-1', fromPort: -1, toPort: -1, cidrIpv4: '0.0.0.0/0' },
      { id: 'sgr-https', groupId: 'sg-1', egress: false, protocol: 'tcp', fromPort: 443, toPort: 443, cidrIpv4: '0.0.0.0/0' },
      { id: 'sgr-ssh', groupId: 'sg-1', egress: false, protocol: 'tcp', fromPort: 22, toPort: 22, referencedGroupId: 'sg-2' },
    ],
  };
}

const objects = [
  object('VPC', 'network', 'u-vpc'),
  object('RouteTable', 'public', 'u-rtb'),
  object('SecurityGroup', 'web', 'u-sg'),
  route,
  association,
  https,
  ssh,
];

describe('oneExternalEach', () => {
  it('finds exactly one resource per object, by uid tag or by content, and nothing else', () => {
    const result = oneExternalEach(objects, healthy());
    expect(result).toEqual({ duplicates: [], missing: [], strays: [] });
    expect(extraResources(result)).toBe(0);
  });

  it('counts a second resource with the same uid as a duplicate', () => {
    const ec2 = healthy();
    ec2.tagged.push({ kind: 'VPC', id: 'vpc-2', uid: 'u-vpc' });
    const result = oneExternalEach(objects, ec2);
    expect(result.duplicates).toEqual([{ object: 'VPC/network', found: ['vpc-1', 'vpc-2'] }]);
    expect(extraResources(result)).toBe(1);
  });

  it('counts a second rule with the same content as a duplicate', () => {
    const ec2 = healthy();
    ec2.rules.push({ ...ec2.rules[1]!, id: 'sgr-https-2' });
    expect(oneExternalEach(objects, ec2).duplicates).toEqual([
      { object: 'SecurityGroupRule/web-https', found: ['sgr-https', 'sgr-https-2'] },
    ]);
  });

  it('counts a Ready object with nothing at EC2 as missing, and one still on its way as nothing', () => {
    const ec2 = healthy();
    ec2.routeTables[0]!.routes.pop();
    ec2.tagged.shift();
    const result = oneExternalEach([...objects.slice(1), { ...objects[0]!, ready: false }], ec2);
    expect(result.missing).toEqual([{ object: 'Route/public-default', found: [] }]);
  });

  it('counts what belongs to no object as a stray: an unknown uid, a route, an association or a rule no object claims', () => {
    const ec2 = healthy();
    ec2.tagged.push({ kind: 'Subnet', id: 'subnet-9', uid: 'u-gone' });
    ec2.routeTables[0]!.routes.push({ destination: '10.99.0.0/16', local: false });
    ec2.routeTables[0]!.associations.push({ id: 'rtbassoc-main', main: true }, { id: 'rtbassoc-9', subnetId: 'subnet-9', main: false });
    ec2.rules.push({ id: 'sgr-9', groupId: 'sg-1', egress: false, protocol: 'tcp', fromPort: 80, toPort: 80, cidrIpv4: '0.0.0.0/0' });
    const result = oneExternalEach(objects, ec2);
    expect(result.strays).toEqual([
      { kind: 'Subnet', id: 'subnet-9' },
      { kind: 'Route', id: 'rtb-1_10.99.0.0/16' },
      { kind: 'RouteTableAssociation', id: 'rtbassoc-9' },
      { kind: 'SecurityGroupRule', id: 'sgr-9' },
    ]);
    expect(extraResources(result)).toBe(4);
  });

  it('leaves an unresolved object that is not Ready alone, and calls a Ready one missing: the check must have looked', () => {
    const unresolved = { ...route, forProvider: { destinationCidrBlock: '0.0.0.0/0' } };
    const ec2 = healthy();
    ec2.routeTables[0]!.routes.pop();
    expect(oneExternalEach([{ ...unresolved, ready: false }], ec2).missing).toEqual([]);
    expect(oneExternalEach([unresolved], ec2).missing).toEqual([{ object: 'Route/public-default', found: [], unresolved: true }]);
  });

  it('matches protocols however EC2 spells them', () => {
    const all = object('SecurityGroupRule', 'all-out', 'u-all', {
      securityGroupId: 'sg-1',
      type: 'egress',
      ipProtocol: 'all',
      cidrIpv4: '0.0.0.0/0',
    });
    expect(oneExternalEach([all], healthy()).duplicates).toEqual([]);
    expect(oneExternalEach([all], healthy()).missing).toEqual([]);
  });
});
