import { type ComponentChild, h } from 'preact';
import { type MarkdownNode, markdownTree } from './markdown.js';

// The instructions' Markdown as DOM nodes: each node of the safe tree is an element Preact
// creates, each text a text node. Nothing becomes HTML.

export function MarkdownView({ source }: { source: string }) {
  return <div class="markdown">{markdownTree(source).map(node)}</div>;
}

function node(item: MarkdownNode, key: number): ComponentChild {
  if (item.kind === 'text') return item.text;
  const children = item.children.map(node);
  if (item.tag === 'a') {
    return h(
      'a',
      { key, href: item.href, rel: 'noopener noreferrer nofollow', target: '_blank' },
      children,
    );
  }
  return h(item.tag, { key }, children);
}
