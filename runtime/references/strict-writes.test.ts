import { describe, expect, it } from 'vitest';
import { refusedWriteMessage, unknownFields } from './strict-writes';

const STRICT = 'VPC in version "v1alpha1" cannot be handled as a VPC: strict decoding error: unknown field "spec.forProvider.noSuchField"';

describe('refusedWriteMessage', () => {
  it('names the path a strict write refused, and says the kind has no such field', () => {
    expect(unknownFields(STRICT)).toEqual(['spec.forProvider.noSuchField']);
    expect(refusedWriteMessage('VPC', ['spec.forProvider.noSuchField', 'spec.forProvider.cidrBlock'], STRICT)).toBe(
      'cannot write spec.forProvider.noSuchField: the VPC kind has no such field',
    );
  });

  it('matches a path however it is spelled', () => {
    expect(refusedWriteMessage('VPC', ['spec["forProvider"][noSuchField]'], STRICT)).toBe(
      'cannot write spec["forProvider"][noSuchField]: the VPC kind has no such field',
    );
  });

  it('names the unknown field inside a written object', () => {
    const message = 'strict decoding error: unknown field "spec.forProvider.tags2.a", unknown field "spec.forProvider.tags2.b"';
    expect(refusedWriteMessage('VPC', ['spec.forProvider.tags2'], message)).toBe(
      'cannot write spec.forProvider.tags2: the VPC kind has no field spec.forProvider.tags2.a; ' +
        'cannot write spec.forProvider.tags2: the VPC kind has no field spec.forProvider.tags2.b',
    );
  });

  it('passes any other refusal on in the API server’s words', () => {
    expect(refusedWriteMessage('VPC', ['spec.forProvider.cidrBlock'], 'spec.forProvider.cidrBlock: Invalid value: "x"')).toBe(
      'cannot write spec.forProvider.cidrBlock: spec.forProvider.cidrBlock: Invalid value: "x"',
    );
  });
});
