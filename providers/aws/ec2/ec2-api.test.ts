// The answers Ec2Api turns EC2 errors into, without EC2: the SDK client is never used, since
// each call's `send` throws or returns what the test says.
import type { EC2Client, EC2PaginationConfiguration, Filter } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { ClassifiedError } from '#core/errors';
import type { ManagedResource } from '#core/managed-resource';
import { UID_TAG } from '../tags';
import { ABSENT, Ec2Api, finishCreate, isNotFound, present, requiredId, sweptByUid, withExternalNames } from './ec2-api';

const ec2 = new Ec2Api({} as EC2Client, { region: 'us-east-1' });
const awsError = (name: string) =>
  Object.assign(new Error(`${name} happened`), { name, $fault: 'client', $metadata: { httpStatusCode: 400 } });
const failing = (name: string) => () => Promise.reject(awsError(name));

describe('Ec2Api.callUnless', () => {
  it('returns what the call returns', async () => {
    await expect(ec2.callUnless('cannot detach', 'Gateway.NotAttached', async () => 'done')).resolves.toBe('done');
  });

  it('answers undefined for the one expected error code', async () => {
    await expect(ec2.callUnless('cannot detach', 'Gateway.NotAttached', failing('Gateway.NotAttached'))).resolves.toBeUndefined();
  });

  it('classifies any other error, naming the action', async () => {
    const error = await ec2.callUnless('cannot detach', 'Gateway.NotAttached', failing('DependencyViolation')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClassifiedError);
    expect(error).toMatchObject({
      failureClass: 'InvalidInput',
      message: 'cannot detach: DependencyViolation: DependencyViolation happened',
    });
  });
});

describe('Ec2Api.find and remove', () => {
  it('answer undefined and false for NotFound', async () => {
    await expect(ec2.find('cannot describe', failing('InvalidVpcID.NotFound'))).resolves.toBeUndefined();
    await expect(ec2.remove('cannot delete', failing('InvalidRoute.NotFound'))).resolves.toBe(false);
    await expect(ec2.remove('cannot delete', async () => ({}))).resolves.toBe(true);
  });
});

describe('isNotFound', () => {
  it.each([
    ['InvalidVpcID.NotFound', true],
    ['NatGatewayNotFound', true],
    ['InvalidGroup.Duplicate', false],
  ])('%s: %s', (code, want) => expect(isNotFound(awsError(code))).toBe(want));
  it('is false for what is not an AWS error', () => expect(isNotFound(undefined)).toBe(false));
});

describe('requiredId', () => {
  it('passes a value through', () => expect(requiredId('vpc-1', 'vpcId')).toBe('vpc-1'));
  it('names the field and its references when the value is missing', () => {
    expect(() => requiredId(undefined, 'vpcId')).toThrow(
      new ClassifiedError('InvalidInput', 'vpcId is required: set vpcId, vpcIdRef or vpcIdSelector'),
    );
  });
});

describe('present', () => {
  const own = { metadata: { uid: 'u-own' } } as ManagedResource;

  it('is up to date exactly when nothing differs, and joins the differences for humans', () => {
    expect(present(own, { differences: [], tags: undefined, readiness: 'Available', atProvider: { id: 'a' } })).toEqual({
      resourceExists: true,
      resourceUpToDate: true,
      readiness: 'Available',
      atProvider: { id: 'a' },
      diff: undefined,
    });
    const drifted = { differences: ['tag a: not in spec', 'tag b: want "1"'], tags: [], readiness: 'Available' as const, atProvider: {} };
    expect(present(own, drifted)).toMatchObject({ resourceUpToDate: false, diff: 'tag a: not in spec; tag b: want "1"' });
  });

  it.each([
    ['its own uid tag', [{ Key: UID_TAG, Value: 'u-own' }], undefined],
    ['no uid tag (never ours)', [{ Key: 'crossplane-name', Value: 'main' }], undefined],
    ['no tags at all', undefined, undefined],
    [
      "another object's uid tag",
      [
        { Key: UID_TAG, Value: 'u-a' },
        { Key: 'crossplane-kind', Value: 'vpc.ec2.aws.chronoplane.io' },
        { Key: 'crossplane-namespace', Value: 'team-a' },
        { Key: 'crossplane-name', Value: 'main' },
      ],
      { uid: 'u-a', kind: 'vpc.ec2.aws.chronoplane.io', namespace: 'team-a', name: 'main' },
    ],
    ['a uid tag without names', [{ Key: UID_TAG, Value: 'u-a' }], { uid: 'u-a', kind: undefined, namespace: undefined, name: undefined }],
  ])('with %s, names the claimant %j', (_case, tags, claimedBy) => {
    const observed = present(own, { differences: [], tags, readiness: 'Available', atProvider: {} });
    expect(observed.claimedBy).toEqual(claimedBy);
    expect('claimedBy' in observed).toBe(claimedBy !== undefined);
  });
});

describe('Ec2Api.describeMatching', () => {
  /** A paginator over ids that match `vpc-<n>` for even n, two results a page, recording each call. */
  function fakePaginator(calls: { values: string[]; pageSize?: number }[]) {
    return async function* (config: EC2PaginationConfiguration, { Filters }: { Filters: Filter[] }) {
      const values = Filters[0]!.Values!;
      const matching = values.filter((v) => Number(v.slice(4)) % 2 === 0);
      for (let at = 0; at === 0 || at < matching.length; at += 2) {
        calls.push({ values, pageSize: config.pageSize });
        yield { Items: matching.slice(at, at + 2) };
      }
    };
  }

  it('asks for 200 values a request, follows every page, and skips what matches nothing', async () => {
    const calls: { values: string[]; pageSize?: number }[] = [];
    const ids = Array.from({ length: 450 }, (_, n) => `vpc-${n}`);
    const found = await ec2.describeMatching('cannot describe VPCs', 'vpc-id', [...ids, 'vpc-0'], fakePaginator(calls), (p) => p.Items);
    expect(found).toEqual(ids.filter((_, n) => n % 2 === 0));
    const requests = [...new Map(calls.map((c) => [c.values, c])).values()];
    expect(requests.map((r) => r.values.length)).toEqual([200, 200, 50]); // the repeated vpc-0 is asked once
    expect(requests.every((r) => r.pageSize === 200)).toBe(true);
  });

  it('makes no call for no values, and classifies a failure', async () => {
    const calls: { values: string[] }[] = [];
    expect(await ec2.describeMatching('cannot describe VPCs', 'vpc-id', [], fakePaginator(calls), (p) => p.Items)).toEqual([]);
    expect(calls).toEqual([]);
    const failingPages = async function* (): AsyncGenerator<{ Items: string[] }> {
      yield* [];
      throw awsError('UnauthorizedOperation');
    };
    await expect(ec2.describeMatching('cannot describe VPCs', 'vpc-id', ['vpc-1'], failingPages, (p) => p.Items)).rejects.toMatchObject({
      failureClass: 'NotAuthorized',
      message: 'cannot describe VPCs: UnauthorizedOperation: UnauthorizedOperation happened',
    });
  });
});

describe('sweptByUid', () => {
  const mr = (uid: string, externalName?: string) =>
    ({ metadata: { uid, annotations: externalName ? { 'crossplane.io/external-name': externalName } : {} } }) as ManagedResource;

  it('answers for every named resource: what was found under its name (late initialization aside), or ABSENT; nothing for the unnamed', () => {
    const named = withExternalNames([mr('u1', 'vpc-1'), mr('u2'), mr('u3', 'vpc-3')]);
    expect(named.map((n) => n.id)).toEqual(['vpc-1', 'vpc-3']);
    const swept = sweptByUid(named, new Map([['vpc-1', 'found']]), (_mr, x) =>
      present(_mr, { differences: [], tags: undefined, readiness: 'Available', atProvider: x, lateInitialized: { a: 1 } }),
    );
    expect(Object.fromEntries(swept)).toEqual({
      u1: { resourceExists: true, resourceUpToDate: true, readiness: 'Available', atProvider: 'found', diff: undefined },
      u3: ABSENT,
    });
  });
});

describe('Ec2Api when the endpoint does not answer as EC2', () => {
  const local = new Ec2Api({} as EC2Client, { region: 'us-east-1', endpoint: 'http://127.0.0.1:5000' });

  it('is Unreachable when nothing answers, naming the region and the endpoint', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5000'), { code: 'ECONNREFUSED' });
    await expect(local.find('cannot describe VPCs', () => Promise.reject(refused))).rejects.toMatchObject({
      failureClass: 'Unreachable',
      message: 'cannot describe VPCs: cannot reach EC2 in region us-east-1 at http://127.0.0.1:5000: connect ECONNREFUSED 127.0.0.1:5000',
    });
  });

  it('is Transient when something that is not EC2 answers', async () => {
    const html = new Error('XML parse error: mismatched tags <html>');
    await expect(local.find('cannot describe VPCs', () => Promise.reject(html))).rejects.toMatchObject({
      failureClass: 'Transient',
      message: expect.stringContaining('cannot reach EC2 in region us-east-1 at http://127.0.0.1:5000'),
    });
  });
});

describe('finishCreate', () => {
  it('reports what the steps after the create did', async () => {
    await expect(finishCreate(async () => ['attached to VPC vpc-1'])).resolves.toEqual({ done: ['attached to VPC vpc-1'], complete: true });
  });

  it('turns a failed step into a note, so the create still returns the resource it made', async () => {
    const step = () => ec2.call('cannot attach internet gateway igw-1 to VPC vpc-9', failing('InvalidVpcID.NotFound'));
    await expect(finishCreate(async () => [await step()])).resolves.toEqual({
      done: [
        'left for an update: cannot attach internet gateway igw-1 to VPC vpc-9: InvalidVpcID.NotFound: InvalidVpcID.NotFound happened',
      ],
      complete: false,
    });
  });
});
