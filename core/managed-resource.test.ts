// Management policies in both of Crossplane's forms: the list (managementPolicies) and the
// earlier single policy (managementPolicy) that seed 002 and provider-kubernetes v1alpha1 use.
import { describe, expect, it } from 'vitest';
import { managementPoliciesOf } from './managed-resource';

describe('managementPoliciesOf', () => {
  it.each([
    [{}, ['*']],
    [{ managementPolicy: 'Default' as const }, ['*']],
    [{ managementPolicy: 'ObserveCreateUpdate' as const }, ['Observe', 'Create', 'Update']],
    [{ managementPolicy: 'ObserveDelete' as const }, ['Observe', 'Delete']],
    [{ managementPolicy: 'Observe' as const }, ['Observe']],
    [{ managementPolicies: ['Observe' as const, 'Delete' as const] }, ['Observe', 'Delete']],
    [{ managementPolicies: ['*' as const] }, ['*']],
  ])('%o allows %o', (spec, actions) => {
    expect(managementPoliciesOf(spec)).toEqual(actions);
  });
});
