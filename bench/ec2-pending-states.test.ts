// EC2 answers as moto writes them (shortened where nothing depends on it), rewritten to show a
// resource still being created.
import { describe, expect, it } from 'vitest';
import { INSTANCE_SHAPE, NAT_GATEWAY_SHAPE, resourceStates, showPending } from './ec2-pending-states';

const head = '<?xml version="1.0" encoding="utf-8"?>\n';
const natGateway = (id: string, state: string) =>
  `<createTime>2026-11-26T20:17:22.000Z</createTime><natGatewayAddressSet><item><allocationId>eipalloc-1</allocationId>` +
  `<networkInterfaceId>eni-1</networkInterfaceId><privateIp>10.0.1.9</privateIp><publicIp>127.0.0.9</publicIp></item>` +
  `</natGatewayAddressSet><natGatewayId>${id}</natGatewayId><state>${state}</state><subnetId>subnet-1</subnetId>` +
  `<vpcId>vpc-1</vpcId><tagSet><item><key>tier</key><value>public</value></item></tagSet>`;
const createNatGateway = (id: string, state: string) =>
  `${head}<CreateNatGatewayResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15"><natGateway>${natGateway(id, state)}` +
  `</natGateway><requestId>request-id</requestId></CreateNatGatewayResponse>`;
const describeNatGateways = (...gateways: [string, string][]) =>
  `${head}<DescribeNatGatewaysResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15"><natGatewaySet>` +
  gateways.map(([id, state]) => `<item>${natGateway(id, state)}</item>`).join('') +
  `</natGatewaySet><requestId>request-id</requestId></DescribeNatGatewaysResponse>`;

// An instance with the nested elements that carry states and ids of their own: a network
// interface (its attachment has a status), metadata options and monitoring (each a <state>).
const instance = (id: string, code: number, name: string) =>
  `<item><architecture>x86_64</architecture><networkInterfaceSet><item><attachment><attachmentId>eni-attach-1</attachmentId>` +
  `<status>attached</status></attachment><groupSet><item><groupId>sg-1</groupId></item></groupSet>` +
  `<networkInterfaceId>eni-2</networkInterfaceId><status>in-use</status></item></networkInterfaceSet><stateReason><code/>` +
  `<message/></stateReason><metadataOptions><state>applied</state><httpTokens>required</httpTokens></metadataOptions>` +
  `<instanceId>${id}</instanceId><imageId>ami-1e749f67</imageId><instanceState><code>${code}</code><name>${name}</name>` +
  `</instanceState><monitoring><state>disabled</state></monitoring><subnetId>subnet-1</subnetId></item>`;
const describeInstances = (...instances: string[]) =>
  `${head}<DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15"><reservationSet><item>` +
  `<reservationId>r-1</reservationId><groupSet/><instancesSet>${instances.join('')}</instancesSet></item></reservationSet>` +
  `<requestId>request-id</requestId></DescribeInstancesResponse>`;

const pendingInstance = '<instanceState><code>0</code><name>pending</name></instanceState>';
const runningInstance = '<instanceState><code>16</code><name>running</name></instanceState>';

describe('resourceStates', () => {
  it("finds each gateway's own state, not its addresses' or tags'", () => {
    const xml = describeNatGateways(['nat-1', 'available'], ['nat-2', 'deleted']);
    expect(resourceStates(xml, NAT_GATEWAY_SHAPE).map(({ id, content }) => [id, content])).toEqual([
      ['nat-1', 'available'],
      ['nat-2', 'deleted'],
    ]);
  });

  it("finds each instance's instanceState, not the other states inside it", () => {
    const xml = describeInstances(instance('i-1', 16, 'running'), instance('i-2', 48, 'terminated'));
    expect(resourceStates(xml, INSTANCE_SHAPE).map(({ id, content }) => [id, content])).toEqual([
      ['i-1', '<code>16</code><name>running</name>'],
      ['i-2', '<code>48</code><name>terminated</name>'],
    ]);
  });

  it('finds nothing in an answer that is not well nested', () => {
    expect(resourceStates('<a><natGatewayId>nat-1</natGatewayId><state>available</state></b>', NAT_GATEWAY_SHAPE)).toEqual([]);
  });
});

describe('showPending', () => {
  it("shows a pending NAT gateway's create answer as pending", () => {
    expect(showPending(createNatGateway('nat-1', 'available'), NAT_GATEWAY_SHAPE, () => true)).toBe(createNatGateway('nat-1', 'pending'));
  });

  it('rewrites only the gateways still pending, leaving the rest of the answer as it was', () => {
    const xml = describeNatGateways(['nat-1', 'available'], ['nat-2', 'available'], ['nat-3', 'available']);
    expect(showPending(xml, NAT_GATEWAY_SHAPE, (id) => id === 'nat-2')).toBe(
      describeNatGateways(['nat-1', 'available'], ['nat-2', 'pending'], ['nat-3', 'available']),
    );
  });

  it('leaves a gateway on its way out as it is: only creating is delayed', () => {
    const xml = describeNatGateways(['nat-1', 'deleted']);
    expect(showPending(xml, NAT_GATEWAY_SHAPE, () => true)).toBe(xml);
  });

  it('shows a pending instance as pending, with its other states untouched', () => {
    const xml = describeInstances(instance('i-1', 16, 'running'), instance('i-2', 16, 'running'));
    const rewritten = showPending(xml, INSTANCE_SHAPE, (id) => id === 'i-1');
    expect(rewritten).toBe(describeInstances(instance('i-1', 0, 'pending'), instance('i-2', 16, 'running')));
    expect(rewritten).toContain('<metadataOptions><state>applied</state>');
    expect(rewritten.split(pendingInstance)).toHaveLength(2);
    expect(rewritten.split(runningInstance)).toHaveLength(2);
  });

  it('leaves a terminated instance as it is', () => {
    const xml = describeInstances(instance('i-1', 48, 'terminated'));
    expect(showPending(xml, INSTANCE_SHAPE, () => true)).toBe(xml);
  });
});
