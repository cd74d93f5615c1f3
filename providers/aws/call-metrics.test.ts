// The EC2 call counter, against an EC2 client whose HTTP handler answers as EC2 does: each
// attempt counted once, with EC2's error code as its outcome, and nothing counted outside an
// activity.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CreateVpcCommand, DeleteVpcCommand, DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { MetricCounter, MetricMeter, MetricTags } from '@temporalio/common';
import { countEc2Calls, EC2_API_CALLS } from './call-metrics';

/** A meter that keeps every count, as "name operation outcome". */
function recordingMeter(): { meter: MetricMeter; counts: Map<string, number> } {
  const counts = new Map<string, number>();
  const counter = (name: string): MetricCounter =>
    ({
      name,
      add(value: number, tags: MetricTags = {}) {
        const key = `${name} ${String(tags.operation)} ${String(tags.outcome)}`;
        counts.set(key, (counts.get(key) ?? 0) + value);
      },
    }) as MetricCounter;
  return { meter: { createCounter: counter } as unknown as MetricMeter, counts };
}

const xml = (body: string) => Readable.from([Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>${body}`)]);

/** Answers DescribeVpcs with no VPCs, CreateVpc with EC2's range error, and throttles the rest. */
function ec2Answering(): EC2Client {
  const client = new EC2Client({
    region: 'us-east-1',
    endpoint: 'http://ec2.invalid',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    maxAttempts: 3,
    requestHandler: {
      async handle(request: { body?: string }) {
        const action = /Action=(\w+)/.exec(String(request.body))?.[1];
        const error = (status: number, code: string) => ({
          response: {
            statusCode: status,
            headers: { 'content-type': 'text/xml' },
            body: xml(
              `<Response><Errors><Error><Code>${code}</Code><Message>${code}</Message></Error></Errors><RequestID>r</RequestID></Response>`,
            ),
          },
        });
        if (action === 'DescribeVpcs')
          return {
            response: {
              statusCode: 200,
              headers: { 'content-type': 'text/xml' },
              body: xml('<DescribeVpcsResponse><requestId>r</requestId><vpcSet/></DescribeVpcsResponse>'),
            },
          };
        if (action === 'CreateVpc') return error(400, 'InvalidVpc.Range');
        return error(503, 'RequestLimitExceeded');
      },
    } as never,
  });
  countEc2Calls(client);
  return client;
}

describe('the EC2 call counter', () => {
  it('counts each call by operation and outcome, in an activity', async () => {
    const { meter, counts } = recordingMeter();
    const client = ec2Answering();
    await new MockActivityEnvironment(undefined, { metricMeter: meter }).run(async () => {
      await client.send(new DescribeVpcsCommand({}));
      await expect(client.send(new CreateVpcCommand({ CidrBlock: '10.0.0.0/8' }))).rejects.toThrow('InvalidVpc.Range');
    });
    expect(Object.fromEntries(counts)).toEqual({
      [`${EC2_API_CALLS} DescribeVpcs ok`]: 1,
      [`${EC2_API_CALLS} CreateVpc InvalidVpc.Range`]: 1,
    });
  });

  it('counts every attempt of a call the SDK retries, as AWS counts them', async () => {
    const { meter, counts } = recordingMeter();
    const client = ec2Answering();
    await new MockActivityEnvironment(undefined, { metricMeter: meter }).run(async () => {
      await expect(client.send(new DeleteVpcCommand({ VpcId: 'vpc-1' }))).rejects.toThrow('RequestLimitExceeded');
    });
    expect(Object.fromEntries(counts)).toEqual({ [`${EC2_API_CALLS} DeleteVpc RequestLimitExceeded`]: 3 });
  });

  it('leaves a call outside an activity alone (a benchmark or a test calling EC2 itself)', async () => {
    const client = ec2Answering();
    await expect(client.send(new DescribeVpcsCommand({}))).resolves.toBeDefined();
  });
});
