// Finds a dependency cycle through an object (A needs B, B needs A, through any mix of typed
// and generic references). A cycle can never resolve, and its members would protect each
// other from deletion forever, so the resolver reports it instead of waiting (kro checks its
// graph the same way before anything runs).

/** The cycle from `start` back to itself as a list of keys (start first and last), or undefined. */
export function findCycle(start: string, edges: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  // Breadth-first, so the shortest cycle is reported: the one a user can most easily read.
  const cameFrom = new Map<string, string>();
  const queue: string[] = [];
  const visit = (next: string, from: string) => {
    if (next === start || cameFrom.has(next)) return;
    cameFrom.set(next, from);
    queue.push(next);
  };
  for (const next of edges.get(start) ?? []) {
    if (next === start) return [start, start];
    visit(next, start);
  }
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of edges.get(node) ?? []) {
      if (next === start) return [start, ...pathTo(node), start];
      visit(next, node);
    }
  }
  return undefined;

  function pathTo(node: string): string[] {
    const path: string[] = [];
    for (let at: string | undefined = node; at !== undefined && at !== start; at = cameFrom.get(at)) path.unshift(at);
    return path;
  }
}
