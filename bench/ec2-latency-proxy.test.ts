// The proxy against a stand-in for moto that answers canned XML: what it forwards, how long it
// holds answers back, and how long a NAT gateway stays pending (on a clock the test moves).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ec2Latencies } from './ec2-latencies';
import { actionOf, startEc2LatencyProxy, type Ec2LatencyProxy } from './ec2-latency-proxy';

const natGateway = (state: string) =>
  `<natGatewayAddressSet><item><allocationId>eipalloc-1</allocationId></item></natGatewayAddressSet>` +
  `<natGatewayId>nat-1</natGatewayId><state>${state}</state><subnetId>subnet-1</subnetId>`;
const answers: Record<string, string> = {
  CreateNatGateway: `<CreateNatGatewayResponse><natGateway>${natGateway('available')}</natGateway></CreateNatGatewayResponse>`,
  DescribeNatGateways: `<DescribeNatGatewaysResponse><natGatewaySet><item>${natGateway('available')}</item></natGatewaySet></DescribeNatGatewaysResponse>`,
  CreateVpc: '<CreateVpcResponse><vpc><vpcId>vpc-1</vpcId><state>available</state></vpc></CreateVpcResponse>',
};

const latencies: Ec2Latencies = {
  callSeconds: { CreateVpc: 0.3 },
  defaultReadSeconds: 0.01,
  defaultWriteSeconds: 0.01,
  pendingSeconds: { CreateNatGateway: 60 },
};

describe('EC2 latency proxy', () => {
  let moto: Server;
  let proxy: Ec2LatencyProxy;
  let clock = 1_000_000;
  const received: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];

  beforeAll(async () => {
    moto = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        received.push({ url: request.url ?? '', headers: request.headers, body });
        const action = new URLSearchParams(body).get('Action');
        if (request.url === '/moto-api/') return void response.writeHead(200).end('moto');
        const answer = action ? answers[action] : undefined;
        if (!answer)
          return void response.writeHead(400).end('<Response><Errors><Error><Code>InvalidAction</Code></Error></Errors></Response>');
        response.writeHead(200, { 'content-type': 'text/xml' }).end(answer);
      });
    });
    await new Promise<void>((resolve) => moto.listen(0, '127.0.0.1', resolve));
    const upstream = `http://127.0.0.1:${(moto.address() as AddressInfo).port}`;
    proxy = await startEc2LatencyProxy({ upstream, latencies, now: () => clock });
  });

  afterAll(async () => {
    await proxy?.stop();
    await new Promise((resolve) => moto?.close(resolve));
  });

  const call = async (action: string) => {
    const response = await fetch(`${proxy.endpoint}/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
        authorization: 'AWS4-HMAC-SHA256 Credential=testing/20261126/us-east-1/ec2/aws4_request',
      },
      body: new URLSearchParams({ Action: action, Version: '2016-11-15' }).toString(),
    });
    return { status: response.status, text: await response.text() };
  };

  it("forwards the request as the caller sent it and returns moto's answer", async () => {
    const before = received.length;
    const callsBefore = proxy.calls();
    expect(await call('CreateVpc')).toEqual({ status: 200, text: answers.CreateVpc });
    const forwarded = received[before]!;
    expect(forwarded.body).toBe('Action=CreateVpc&Version=2016-11-15');
    expect(forwarded.headers.authorization).toBe('AWS4-HMAC-SHA256 Credential=testing/20261126/us-east-1/ec2/aws4_request');
    expect(forwarded.headers.host).toBe(new URL(proxy.endpoint).host);
    expect(proxy.calls()).toBe(callsBefore + 1);
  });

  it("holds an answer back for its Action's latency", async () => {
    const started = performance.now();
    await call('CreateVpc');
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('passes errors and requests that name no Action through', async () => {
    expect((await call('RebootInstances')).status).toBe(400);
    const page = await fetch(`${proxy.endpoint}/moto-api/`);
    expect(await page.text()).toBe('moto');
  });

  it('keeps a NAT gateway pending for its time after the create, then shows it as moto does', async () => {
    const created = await call('CreateNatGateway');
    expect(created.text).toContain('<natGatewayId>nat-1</natGatewayId><state>pending</state>');
    expect((await call('DescribeNatGateways')).text).toContain('<state>pending</state>');
    clock += 59_000;
    expect((await call('DescribeNatGateways')).text).toContain('<state>pending</state>');
    clock += 1_100;
    expect((await call('DescribeNatGateways')).text).toBe(answers.DescribeNatGateways);
  });
});

describe('actionOf', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' };
  it('reads the Action from a form body or from the query string', () => {
    expect(actionOf('/', form, Buffer.from('Action=DescribeVpcs&Version=2016-11-15'))).toBe('DescribeVpcs');
    expect(actionOf('/?Action=DescribeSubnets', {}, Buffer.alloc(0))).toBe('DescribeSubnets');
    expect(actionOf('/moto-api/', {}, Buffer.alloc(0))).toBeUndefined();
  });
});
