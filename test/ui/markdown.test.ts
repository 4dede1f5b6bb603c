import { describe, expect, it } from 'vitest';
import {
  decodeEntities,
  type MarkdownNode,
  markdownTree,
  safeHref,
} from '../../src/ui/markdown.js';

// The instructions' Markdown as the page renders it: a tree of a few plain elements and text.

/** The tree as compact text: `<p>a<strong>b</strong></p>`, so a test reads like the page. */
function shown(nodes: MarkdownNode[]): string {
  return nodes
    .map((node) =>
      node.kind === 'text'
        ? `«${node.text}»`
        : `<${node.tag}${node.href ? ` ${node.href}` : ''}>${shown(node.children)}</${node.tag}>`,
    )
    .join('');
}

/** Every tag in a tree. */
const tags = (nodes: MarkdownNode[]): string[] =>
  nodes.flatMap((node) => (node.kind === 'text' ? [] : [node.tag, ...tags(node.children)]));

describe('instructions in Markdown', () => {
  it('keeps paragraphs, emphasis, code, lists and quotes as elements', () => {
    const tree = markdownTree(
      'Judge **the answer**, _not_ the `question`.\n\n- one\n- two\n\n1. first\n\n> quoted\n\n```\nx < y\n```',
    );
    expect(shown(tree)).toBe(
      '<p>«Judge »<strong>«the answer»</strong>«, »<em>«not»</em>« the »<code>«question»</code>«.»</p>' +
        '<ul><li>«one»</li><li>«two»</li></ul>' +
        '<ol><li>«first»</li></ol>' +
        '<blockquote><p>«quoted»</p></blockquote>' +
        '<pre><code>«x < y»</code></pre>',
    );
  });

  it('starts headings at h3, under the page’s own', () => {
    expect(shown(markdownTree('# Rubric\n\n## Scale\n\n#### Deep'))).toBe(
      '<h3>«Rubric»</h3><h4>«Scale»</h4><h4>«Deep»</h4>',
    );
  });

  it('turns raw HTML into the text it is, whatever it holds', () => {
    const tree = markdownTree(
      'Hi <img src=x onerror="alert(1)"> there\n\n<script>alert(2)</script>\n\n<div onclick="x()">block</div>',
    );
    expect(tags(tree).every((tag) => tag === 'p')).toBe(true);
    const text = shown(tree);
    expect(text).toContain('«<img src=x onerror="alert(1)">»');
    expect(text).toContain('<script>alert(2)</script>');
    expect(text).toContain('<div onclick="x()">block</div>');
  });

  it('keeps http(s) and mailto links, and makes every other link its text', () => {
    const tree = markdownTree(
      '[docs](https://example.org/a?b=1) [mail](mailto:a@example.org) [bad](javascript:alert(1)) ' +
        '[data](data:text/html,<b>x</b>) [rel](/ui/other) [vb](vbscript:x) <https://auto.example>',
    );
    expect(shown(tree)).toBe(
      '<p><a https://example.org/a?b=1>«docs»</a>« »<a mailto:a@example.org>«mail»</a>« »«bad»« »' +
        '«data»« »«rel»« »«vb»« »<a https://auto.example>«https://auto.example»</a></p>',
    );
  });

  it('refuses a scheme hidden behind case, entities or whitespace', () => {
    expect(safeHref('JAVASCRIPT:alert(1)')).toBeNull();
    expect(safeHref('java\tscript:alert(1)')).toBeNull();
    expect(safeHref(' https://ok.example ')).toBe('https://ok.example');
    expect(safeHref('https://ok.example\n')).toBe('https://ok.example');
    expect(safeHref('ht\ttps://ok.example')).toBeNull();
    const encoded = markdownTree('[x](&#106;avascript:alert(1)) [y](jav&#x61;script:alert(1))');
    expect(tags(encoded)).toEqual(['p']);
  });

  it('shows images as their alt text, never loading them', () => {
    expect(shown(markdownTree('![a chart](https://example.org/c.png)'))).toBe('<p>«a chart»</p>');
  });

  it('reads character references as characters, and leaves code as written', () => {
    expect(shown(markdownTree('a &amp; b &lt;i&gt; &#65;&#x42; \\*not em\\* `&amp;`'))).toBe(
      '<p>«a & b <i> AB »«*»«not em»«*»« »<code>«&amp;»</code></p>',
    );
    expect(decodeEntities('&unknown; &#0; &#x110000;')).toBe('&unknown; \ufffd \ufffd');
  });

  it('keeps tables as tables', () => {
    expect(shown(markdownTree('| a | b |\n|---|---|\n| 1 | **2** |'))).toBe(
      '<table><thead><tr><th>«a»</th><th>«b»</th></tr></thead>' +
        '<tbody><tr><td>«1»</td><td><strong>«2»</strong></td></tr></tbody></table>',
    );
  });
});
