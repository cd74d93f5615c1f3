// Every relative link in the README, bench/README.md and docs/*.md names a file or folder that
// exists, so moving a page or a source file cannot leave a dead link behind. Anchors are not
// checked: only the file part of `path#anchor`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

const docsPages = readdirSync(join(root, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => `docs/${name}`);
const pages = ['README.md', 'bench/README.md', ...docsPages];

// Code is not prose: a `](` inside a code block or an inline code span is not a link.
function withoutCode(markdown: string): string {
  const prose: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence === undefined && opening !== undefined) fence = opening;
    else if (fence !== undefined && line.trim().startsWith(fence)) fence = undefined;
    else if (fence === undefined) prose.push(line);
  }
  return prose.join('\n').replace(/(`+)[^`]*?\1/g, '');
}

/** The relative link targets in a Markdown text, without `#anchor` or `?query`, decoded. */
function relativeLinkTargets(markdown: string): string[] {
  const prose = withoutCode(markdown);
  const raw = [
    ...[...prose.matchAll(/\]\(\s*(<[^>]*>|[^\s)]+)(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? ''),
    ...[...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)/gm)].map((m) => m[1] ?? ''),
  ];
  return raw
    .map((target) => target.replace(/^<|>$/g, ''))
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//'))
    .map((target) => decodeURIComponent(target.replace(/[#?].*$/, '')))
    .filter((target) => target !== '');
}

describe('relativeLinkTargets', () => {
  it.each([
    ['[a](docs/a.md)', ['docs/a.md']],
    ['[a](../bench/README.md#results "title")', ['../bench/README.md']],
    ['[a](#anchor) [b](https://x.io/y) [c](mailto:a@b.c)', []],
    ['![pic](img/p.png) and [ref]: <with space.md>', ['img/p.png']],
    ['[x]: other.md', ['other.md']],
    ['`[not](a-link.md)` and\n```\n[nor](this.md)\n```\n[but](this.md)', ['this.md']],
    ['[a%20b](a%20b.md)', ['a b.md']],
  ])('%j', (markdown, expected) => {
    expect(relativeLinkTargets(markdown)).toEqual(expected);
  });
});

describe('relative links in the docs', () => {
  it.each(pages)('%s: every relative link target exists', (page) => {
    const text = readFileSync(join(root, page), 'utf8');
    const missing = relativeLinkTargets(text).filter((target) => !existsSync(join(root, dirname(page), target)));
    expect(missing).toEqual([]);
  });

  it('the README links every docs page and bench/README.md', () => {
    const linked = new Set(relativeLinkTargets(readFileSync(join(root, 'README.md'), 'utf8')));
    const unlinked = [...docsPages, 'bench/README.md'].filter((page) => !linked.has(page));
    expect(unlinked).toEqual([]);
  });
});
