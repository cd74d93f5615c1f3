// The answers Ec2Api turns EC2 errors into, without EC2: the SDK client is never used, since
// each call's `send` throws or returns what the test says.
import type { EC2Client } from '@aws-sdk/client-ec2';
import { describe, expect, it } from 'vitest';
import { ClassifiedError } from '../../../runtime/errors';
import { Ec2Api, isNotFound, present, requiredId } from './ec2-api';

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
  it('is up to date exactly when nothing differs, and joins the differences for humans', () => {
    expect(present({ differences: [], readiness: 'Available', atProvider: { id: 'a' } })).toEqual({
      resourceExists: true,
      resourceUpToDate: true,
      readiness: 'Available',
      atProvider: { id: 'a' },
      diff: undefined,
    });
    expect(present({ differences: ['tag a: not in spec', 'tag b: want "1"'], readiness: 'Available', atProvider: {} })).toMatchObject({
      resourceUpToDate: false,
      diff: 'tag a: not in spec; tag b: want "1"',
    });
  });
});
