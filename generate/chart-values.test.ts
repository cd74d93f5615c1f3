// The chart's values.yaml and values.schema.json describe the same values: every value has a
// schema entry with a description, and every schema entry has a default in values.yaml, so a
// user reading either one sees everything. (helm lint checks that the defaults pass the schema.)
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { chartDir } from './chart-files';

interface SchemaNode {
  type?: string | string[];
  description?: string;
  properties?: Record<string, SchemaNode>;
}

const values = parse(await readFile(join(chartDir, 'values.yaml'), 'utf8')) as Record<string, unknown>;
const schema = JSON.parse(await readFile(join(chartDir, 'values.schema.json'), 'utf8')) as SchemaNode;

const isMap = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Dotted paths of every value, down to where the schema stops describing fields (a free-form map). */
function valuePaths(node: Record<string, unknown>, described: SchemaNode, prefix = ''): string[] {
  return Object.entries(node).flatMap(([key, value]) => {
    const path = `${prefix}${key}`;
    const child = described.properties?.[key];
    if (child?.properties && isMap(value)) return [path, ...valuePaths(value, child, `${path}.`)];
    return [path];
  });
}

/** Dotted paths of every schema property. */
function schemaPaths(node: SchemaNode, prefix = ''): string[] {
  return Object.entries(node.properties ?? {}).flatMap(([key, child]) => [`${prefix}${key}`, ...schemaPaths(child, `${prefix}${key}.`)]);
}

function schemaAt(path: string): SchemaNode | undefined {
  return path.split('.').reduce<SchemaNode | undefined>((node, key) => node?.properties?.[key], schema);
}

function valueAt(path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (isMap(node) ? node[key] : undefined), values);
}

describe("the chart's values", () => {
  it('are each described by the schema', () => {
    const undocumented = valuePaths(values, schema).filter((path) => !schemaAt(path)?.description);
    expect(undocumented).toEqual([]);
  });

  it('cover every value the schema describes, with a default', () => {
    const missing = schemaPaths(schema).filter((path) => valueAt(path) === undefined);
    expect(missing).toEqual([]);
  });

  it('refuse values the schema does not know, at every level it describes', () => {
    const open: string[] = [];
    const visit = (node: SchemaNode & { additionalProperties?: unknown }, path: string) => {
      if (!node.properties) return;
      if (node.additionalProperties !== false) open.push(path || '(root)');
      for (const [key, child] of Object.entries(node.properties)) visit(child, path ? `${path}.${key}` : key);
    };
    visit(schema, '');
    expect(open).toEqual([]);
  });
});
