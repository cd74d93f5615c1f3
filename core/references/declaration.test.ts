// Table tests for the names a reference declaration gives its fields: Crossplane's `<field>Ref` /
// `<field>Selector`, and `<singular>Refs` / `<singular>Selector` for a list field. The CRD
// generator, the resolver and the watcher all derive these names from the same declaration.
import { describe, expect, it } from 'vitest';
import { refFieldOf, selectorFieldOf, type ReferenceDeclaration } from './declaration';
import { testKindApi } from '#test/unit/kind-api';

const api = testKindApi;

describe('refFieldOf and selectorFieldOf', () => {
  it.each<{ name: string; declaration: ReferenceDeclaration; ref: string; selector: string }>([
    { name: 'a single field: vpcId', declaration: { field: 'vpcId', to: api('VPC') }, ref: 'vpcIdRef', selector: 'vpcIdSelector' },
    {
      name: 'a list field drops its plural s: securityGroupIds',
      declaration: { field: 'securityGroupIds', to: api('SecurityGroup'), list: true },
      ref: 'securityGroupIdRefs',
      selector: 'securityGroupIdSelector',
    },
    {
      name: 'a single field that ends in s keeps it',
      declaration: { field: 'address', to: api('Address') },
      ref: 'addressRef',
      selector: 'addressSelector',
    },
    {
      name: 'a list field without a plural s keeps its name',
      declaration: { field: 'subnetIdList', to: api('Subnet'), list: true },
      ref: 'subnetIdListRefs',
      selector: 'subnetIdListSelector',
    },
    {
      name: 'fromFieldPath does not change the names',
      declaration: { field: 'routeTableId', to: api('RouteTable'), fromFieldPath: 'status.atProvider.routeTableId' },
      ref: 'routeTableIdRef',
      selector: 'routeTableIdSelector',
    },
    {
      name: 'the target kind does not change the names',
      declaration: { field: 'gatewayId', to: api('InternetGateway') },
      ref: 'gatewayIdRef',
      selector: 'gatewayIdSelector',
    },
  ])('$name', ({ declaration, ref, selector }) => {
    expect(refFieldOf(declaration)).toBe(ref);
    expect(selectorFieldOf(declaration)).toBe(selector);
  });
});
