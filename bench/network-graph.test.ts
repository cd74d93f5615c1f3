import { describe, expect, it } from 'vitest';
import { vpcApi } from '#providers/aws/ec2/vpc/schema';
import { dependencyOrder, heaviestChain, type NetworkGraph } from './network-graph';

const object = (key: string) => ({ key, api: vpcApi, name: key, file: `${key}.yaml` });
// File order puts every dependent before what it needs, as examples/aws-network/ does (vpc.yaml last).
const graph: NetworkGraph = {
  objects: ['route', 'subnet', 'table', 'vpc'].map(object),
  edges: [
    { target: 'vpc', dependent: 'subnet' },
    { target: 'vpc', dependent: 'table' },
    { target: 'table', dependent: 'route' },
    { target: 'subnet', dependent: 'route' },
  ],
};

describe('dependencyOrder', () => {
  it('puts each object after everything it refers to, keeping file order otherwise', () => {
    expect(dependencyOrder(graph).map((o) => o.key)).toEqual(['vpc', 'subnet', 'table', 'route']);
  });

  it('names the objects of a cycle', () => {
    const cycle = {
      objects: ['a', 'b'].map(object),
      edges: [
        { target: 'a', dependent: 'b' },
        { target: 'b', dependent: 'a' },
      ],
    };
    expect(() => dependencyOrder(cycle)).toThrow('cycle among a, b');
  });
});

describe('heaviestChain', () => {
  it('follows the heaviest way through the graph', () => {
    const weights: Record<string, number> = { vpc: 1, subnet: 3, table: 2, route: 1 };
    expect(heaviestChain(graph, (key) => weights[key]!)).toEqual({ path: ['vpc', 'subnet', 'route'], total: 5 });
  });
});
