// The product's folders are layers, each importing only from the ones below it: the picture in
// docs/architecture.md stays true, and a newcomer can read the code from the floor up. This
// test reads every product file's imports (TypeScript's own pre-processor) and fails on an
// import that runs up or across a layer, on one that reaches into the tooling (stack/, bench/,
// test/), and on any cycle between files.
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

/** From the floor up; folders on one line are siblings and import nothing of each other. */
const LAYERS: readonly (readonly string[])[] = [
  ['core'], // the managed-resource model, conditions, annotations, errors, the external-client contract, reference declarations
  ['apis'], // schema building blocks the kinds use to declare their CRDs
  ['runtime'], // infrastructure: informers, Kubernetes and Temporal connections, config, logging, reference resolution
  ['contract'], // what workflows and activities (and the watcher, worker and CLI) agree on
  ['providers'], // the managed kinds, each in one folder, and the registry
  ['generate', 'workflows', 'activities'], // CRD and chart generation; the decisions; the I/O
  ['watcher'],
  ['worker', 'cli'],
];
const rankOf = new Map(LAYERS.flatMap((folders, rank) => folders.map((folder) => [folder, rank] as const)));

function productFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir)) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|mts)$/.test(entry) && !isTestSupport(entry) && !entry.endsWith('.d.ts')) files.push(relative(root, path));
    }
  };
  for (const folder of rankOf.keys()) {
    try {
      walk(join(root, folder));
    } catch {
      // A layer with no folder yet.
    }
  }
  return files.sort();
}

/**
 * Tests, and a kind's fixtures.ts: what tests and tools know of the kind (test/kind-fixtures.ts),
 * kept in its folder so that a new kind brings its own. Both may import tooling; no product file
 * may import them.
 */
const isTestSupport = (entry: string) => /\.test\.ts$/.test(entry) || entry === 'fixtures.ts';

/**
 * The repository files a file imports: relative ones, and those through package.json's
 * `imports` (`#core/conditions` is core/conditions.ts). Packages are not layers.
 */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
  return importedFiles
    .map((i) => i.fileName)
    .filter((name) => name.startsWith('.') || name.startsWith('#'))
    .map((name) => (name.startsWith('#') ? name.slice(1) : normalize(join(dirname(file), name))).replace(/\.(js|mjs|ts)$/, ''));
}

const folderOf = (path: string) => path.split('/')[0]!;
const withoutExtension = (file: string) => file.replace(/\.(ts|mts)$/, '');

describe('layers', () => {
  const files = productFiles();
  const graph = new Map(files.map((file) => [withoutExtension(file), importsOf(file)]));

  it('finds the product files', () => expect(files.length).toBeGreaterThan(100));

  it('import only from their own folder or a layer below', () => {
    const wrong: string[] = [];
    for (const [file, imports] of graph) {
      const from = folderOf(file);
      for (const target of imports) {
        const to = folderOf(target);
        if (to === from) continue;
        const [fromRank, toRank] = [rankOf.get(from)!, rankOf.get(to)];
        if (toRank === undefined) wrong.push(`${file} -> ${target}: ${to}/ is tooling, not product`);
        else if (toRank >= fromRank)
          wrong.push(`${file} -> ${target}: ${to}/ is ${toRank === fromRank ? 'a sibling of' : 'above'} ${from}/`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('never import a kind’s fixtures', () => {
    const wrong = [...graph].flatMap(([file, imports]) => imports.filter((t) => t.endsWith('/fixtures')).map((t) => `${file} -> ${t}`));
    expect(wrong).toEqual([]);
  });

  it('have no import cycles', () => {
    expect(cyclesIn(graph)).toEqual([]);
  });
});

/** Every strongly connected group of more than one file (Tarjan), each as its sorted files. */
function cyclesIn(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file)!, index.get(target)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1) cycles.push(group.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return cycles;
}
