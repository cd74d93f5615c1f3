// The forProvider-level rules that reference declarations generate: a kind says `required: true`
// once, and the CRD refuses an object that gives neither the field nor its Ref nor its Selector.
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { celHasValueOrReference, withReferenceFields } from './fields';
import { Doc, immutable, withRules, type CelRule } from '../schema';
import type { KindApi } from '../managed-kind';

const vpc: KindApi = {
  group: 'ec2.aws.chronoplane.io',
  version: 'v1alpha1',
  kind: 'VPC',
  plural: 'vpcs',
  singular: 'vpc',
  shortNames: [],
  categories: [],
  description: '',
};

const rulesOf = (schema: object) => (schema as { 'x-kubernetes-validations'?: CelRule[] })['x-kubernetes-validations'];

describe('celHasValueOrReference', () => {
  it.each([
    { names: { field: 'vpcId' }, want: 'has(self.vpcId) || has(self.vpcIdRef) || has(self.vpcIdSelector)' },
    {
      names: { field: 'securityGroupIds', list: true },
      want: 'has(self.securityGroupIds) || has(self.securityGroupIdRefs) || has(self.securityGroupIdSelector)',
    },
  ])('$names.field', ({ names, want }) => expect(celHasValueOrReference(names)).toBe(want));
});

describe('withReferenceFields: required references', () => {
  const own: CelRule = { rule: 'has(self.a) || has(self.b)', message: 'a or b' };
  const forProvider = withRules(Doc('p', { vpcId: Type.Optional(Type.String()), a: Type.Optional(Type.String()) }), own);

  it('requires the field, its Ref or its Selector, before the kind’s own rules', () => {
    const schema = withReferenceFields(forProvider, [{ field: 'vpcId', to: vpc, required: true }]);
    expect(rulesOf(schema)).toEqual([
      {
        rule: 'has(self.vpcId) || has(self.vpcIdRef) || has(self.vpcIdSelector)',
        message: 'one of vpcId, vpcIdRef or vpcIdSelector is required',
      },
      own,
    ]);
  });

  it('adds no rule for an optional reference', () => {
    expect(rulesOf(withReferenceFields(forProvider, [{ field: 'vpcId', to: vpc }]))).toEqual([own]);
  });

  it('puts the rules of an immutable id after the kind’s own', () => {
    const immutableId = Doc('p', { vpcId: Type.Optional(immutable(Type.String(), 'vpcId')) });
    const rules = rulesOf(withReferenceFields(immutableId, [{ field: 'vpcId', to: vpc, required: true }]))!;
    expect(rules.map((r) => r.message)).toEqual([
      'one of vpcId, vpcIdRef or vpcIdSelector is required',
      'vpcId is immutable; only vpcIdRef or vpcIdSelector may fill it in',
    ]);
  });
});
