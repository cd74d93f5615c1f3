// Table tests for cycle detection: each row is a dependency graph (who needs whom) and the
// cycle through `start` that must be reported, or none. Breadth-first, so the shortest cycle is
// the one a user reads in the condition.
import { describe, expect, it } from 'vitest';
import { findCycle } from './cycles';

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

describe('findCycle', () => {
  it.each<{ name: string; edges: Record<string, string[]>; start?: string; cycle: string[] | undefined }>([
    { name: 'no edges at all', edges: {}, cycle: undefined },
    { name: 'a chain without a way back', edges: { A: ['B'], B: ['C'] }, cycle: undefined },
    { name: 'a start that needs nothing, although others form a cycle', edges: { B: ['C'], C: ['B'] }, cycle: undefined },
    { name: 'a self-loop', edges: { A: ['A'] }, cycle: ['A', 'A'] },
    { name: 'a self-loop listed after another edge is still the shortest', edges: { A: ['B', 'A'], B: ['A'] }, cycle: ['A', 'A'] },
    { name: 'a 2-cycle', edges: { A: ['B'], B: ['A'] }, cycle: ['A', 'B', 'A'] },
    { name: 'a 3-cycle', edges: { A: ['B'], B: ['C'], C: ['A'] }, cycle: ['A', 'B', 'C', 'A'] },
    {
      name: 'the shortest of two cycles, although the longer one is listed first',
      edges: { A: ['B', 'E'], B: ['C'], C: ['D'], D: ['A'], E: ['F'], F: ['A'] },
      cycle: ['A', 'E', 'F', 'A'],
    },
    {
      name: 'the shortest cycle when the long one starts with the same hop',
      edges: { A: ['B'], B: ['C', 'A'], C: ['A'] },
      cycle: ['A', 'B', 'A'],
    },
    { name: 'a cycle that does not pass through start is ignored', edges: { A: ['B'], B: ['C'], C: ['B'] }, cycle: undefined },
    { name: 'a self-loop on another node is ignored', edges: { A: ['B'], B: ['B'] }, cycle: undefined },
    { name: 'a diamond is not a cycle', edges: { A: ['B', 'C'], B: ['D'], C: ['D'], D: [] }, cycle: undefined },
    {
      name: 'a diamond that closes back to start reports the first path found',
      edges: { A: ['B', 'C'], B: ['D'], C: ['D'], D: ['A'] },
      cycle: ['A', 'B', 'D', 'A'],
    },
    {
      name: 'a cycle through start next to one that is not',
      edges: { A: ['B'], B: ['C'], C: ['A', 'D'], D: ['C'] },
      cycle: ['A', 'B', 'C', 'A'],
    },
    { name: 'a node with no entry in the map needs nothing', edges: { A: ['B'] }, cycle: undefined },
    {
      name: 'real keys, as the activity builds them',
      start: 'Subnet.ec2.aws.chronoplane.io/team-a/s',
      edges: {
        'Subnet.ec2.aws.chronoplane.io/team-a/s': ['VPC.ec2.aws.chronoplane.io/team-a/v'],
        'VPC.ec2.aws.chronoplane.io/team-a/v': ['Subnet.ec2.aws.chronoplane.io/team-a/s'],
      },
      cycle: ['Subnet.ec2.aws.chronoplane.io/team-a/s', 'VPC.ec2.aws.chronoplane.io/team-a/v', 'Subnet.ec2.aws.chronoplane.io/team-a/s'],
    },
  ])('$name', ({ edges, start, cycle }) => {
    expect(findCycle(start ?? 'A', graph(edges))).toEqual(cycle);
  });
});
