// Prints a trace as `crossplane resource trace` does: a tree in the NAME column, then SYNCED,
// READY and STATUS; `wide` adds each object's workflow id and its page in the Temporal UI.
import type { TraceNode } from './trace-graph';

export type OutputFormat = 'default' | 'wide' | 'json';

export interface TemporalUi {
  /** Such as http://localhost:8233. */
  baseUrl: string;
  namespace: string;
}

export function workflowUrl(ui: TemporalUi, workflowId: string): string {
  const base = ui.baseUrl.replace(/\/+$/, '');
  return `${base}/namespaces/${encodeURIComponent(ui.namespace)}/workflows/${encodeURIComponent(workflowId)}`;
}

export function renderTrace(root: TraceNode, format: OutputFormat, ui: TemporalUi): string {
  if (format === 'json') return `${JSON.stringify(withUrls(root, ui), null, 2)}\n`;
  const wide = format === 'wide';
  const header = ['NAME', 'SYNCED', 'READY', 'STATUS', ...(wide ? ['WORKFLOW', 'UI'] : [])];
  const rows: string[][] = [];
  const visit = (node: TraceNode, prefix: string, branch: string) => {
    const name = `${prefix}${branch}${node.relation === 'root' ? '' : `${node.relation} `}${nameOf(node, root.key.namespace)}`;
    const workflow = wide ? [node.workflowId ?? '-', node.workflowId ? workflowUrl(ui, node.workflowId) : '-'] : [];
    rows.push([name, node.synced, node.ready, node.status || '-', ...workflow]);
    const childPrefix = prefix + (branch === '' ? '' : branch === LAST ? '   ' : '│  ');
    node.children.forEach((child, i) => visit(child, childPrefix, i === node.children.length - 1 ? LAST : MIDDLE));
  };
  visit(root, '', '');
  return table([header, ...rows]);
}

const MIDDLE = '├─ ';
const LAST = '└─ ';

/** `Kind/name`, with the namespace when it is not the traced object's. */
function nameOf(node: TraceNode, rootNamespace: string): string {
  const { kind, namespace, name } = node.key;
  return namespace && namespace !== rootNamespace ? `${kind}/${namespace}/${name}` : `${kind}/${name}`;
}

/** Columns padded to their widest cell, three spaces apart, as kubectl prints them; the last column is not padded. */
function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => [...(row[column] ?? '')].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell + ' '.repeat(widths[column]! - [...cell].length)))
        .join('   ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

type JsonNode = Omit<TraceNode, 'children'> & { workflowUrl?: string; children: JsonNode[] };

function withUrls(node: TraceNode, ui: TemporalUi): JsonNode {
  return {
    ...node,
    ...(node.workflowId ? { workflowUrl: workflowUrl(ui, node.workflowId) } : {}),
    children: node.children.map((child) => withUrls(child, ui)),
  };
}
