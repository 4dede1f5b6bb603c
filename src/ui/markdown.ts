import { Lexer, type Token, type Tokens } from 'marked';

// A queue's instructions are Markdown written by people: marked's lexer reads them into tokens,
// and this turns the tokens into a tree of a few plain elements and text, which the page renders
// as DOM nodes (never as HTML). It is the sanitizer: only the elements below can come out, raw
// HTML comes out as the text it is, a link keeps its address only when it is http(s) or mailto
// (anything else, `javascript:` first, is text), and images become their alt text.

export type MarkdownTag =
  | 'p'
  | 'h2'
  | 'h3'
  | 'h4'
  | 'ul'
  | 'ol'
  | 'li'
  | 'blockquote'
  | 'pre'
  | 'code'
  | 'strong'
  | 'em'
  | 'del'
  | 'a'
  | 'hr'
  | 'br'
  | 'table'
  | 'thead'
  | 'tbody'
  | 'tr'
  | 'th'
  | 'td';

export type MarkdownNode =
  | { kind: 'text'; text: string }
  | { kind: 'element'; tag: MarkdownTag; href?: string; children: MarkdownNode[] };

const SAFE_LINK = /^(https?:\/\/|mailto:)/i;

/** The instructions' Markdown as a tree of safe elements and text. */
export function markdownTree(source: string): MarkdownNode[] {
  return blocks(Lexer.lex(source, { gfm: true, breaks: false }));
}

/** Where a link may go: an absolute http(s) or mailto address, else nowhere (null). */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  // Browsers ignore tabs and newlines inside a scheme (`java\tscript:`); so does this check.
  const compact = trimmed.replace(/[\t\n\r]/g, '');
  return SAFE_LINK.test(compact) && compact === trimmed ? trimmed : null;
}

const text = (value: string): MarkdownNode => ({ kind: 'text', text: decodeEntities(value) });
const element = (tag: MarkdownTag, children: MarkdownNode[], href?: string): MarkdownNode =>
  href === undefined
    ? { kind: 'element', tag, children }
    : { kind: 'element', tag, href, children };

function blocks(tokens: readonly Token[]): MarkdownNode[] {
  return tokens.flatMap((token): MarkdownNode[] => {
    switch (token.type) {
      case 'space':
      case 'def':
        return [];
      case 'paragraph':
        return [element('p', inline((token as Tokens.Paragraph).tokens))];
      case 'heading': {
        // The page's own headings are h1 (the page) and h2 (its sections): instructions start at h3.
        const depth = Math.min(4, Math.max(3, (token as Tokens.Heading).depth + 2));
        return [element(`h${depth}` as MarkdownTag, inline((token as Tokens.Heading).tokens))];
      }
      case 'list': {
        const list = token as Tokens.List;
        const items = list.items.map((item) => element('li', listItem(item)));
        return [element(list.ordered ? 'ol' : 'ul', items)];
      }
      case 'blockquote':
        return [element('blockquote', blocks((token as Tokens.Blockquote).tokens))];
      case 'code':
        return [element('pre', [element('code', [{ kind: 'text', text: token.text }])])];
      case 'hr':
        return [element('hr', [])];
      case 'table':
        return [table(token as Tokens.Table)];
      case 'html':
        return [element('p', [{ kind: 'text', text: token.raw }])];
      case 'text': {
        const { tokens: inner } = token as Tokens.Text;
        return [element('p', inner ? inline(inner) : [text(token.text)])];
      }
      default:
        return [element('p', [{ kind: 'text', text: token.raw }])];
    }
  });
}

function listItem(item: Tokens.ListItem): MarkdownNode[] {
  // A tight list's item holds text tokens: their inline content, without a paragraph around it.
  return item.tokens.flatMap((token) =>
    token.type === 'text' ? inlineOf(token as Tokens.Text) : blocks([token]),
  );
}

const inlineOf = (token: Tokens.Text): MarkdownNode[] =>
  token.tokens ? inline(token.tokens) : [text(token.text)];

function table(token: Tokens.Table): MarkdownNode {
  const row = (cells: Tokens.TableCell[], tag: 'th' | 'td') =>
    element(
      'tr',
      cells.map((cell) => element(tag, inline(cell.tokens))),
    );
  return element('table', [
    element('thead', [row(token.header, 'th')]),
    element(
      'tbody',
      token.rows.map((cells) => row(cells, 'td')),
    ),
  ]);
}

function inline(tokens: readonly Token[]): MarkdownNode[] {
  return tokens.flatMap((token): MarkdownNode[] => {
    switch (token.type) {
      case 'text':
        return inlineOf(token as Tokens.Text);
      case 'escape':
        return [{ kind: 'text', text: token.text }];
      case 'strong':
        return [element('strong', inline((token as Tokens.Strong).tokens))];
      case 'em':
        return [element('em', inline((token as Tokens.Em).tokens))];
      case 'del':
        return [element('del', inline((token as Tokens.Del).tokens))];
      case 'codespan':
        // Code keeps its characters as written: `&amp;` in code is those five characters.
        return [element('code', [{ kind: 'text', text: token.text }])];
      case 'br':
        return [element('br', [])];
      case 'link': {
        const link = token as Tokens.Link;
        const children = inline(link.tokens);
        const href = safeHref(link.autolink ? link.href : decodeEntities(link.href));
        return href === null ? children : [element('a', children, href)];
      }
      case 'image':
        return [text((token as Tokens.Image).text)];
      case 'html':
        return [{ kind: 'text', text: token.raw }];
      default:
        return [{ kind: 'text', text: token.raw }];
    }
  });
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** Markdown text's character references as the characters they stand for. */
export function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return NAMED[name.toLowerCase()] ?? whole;
    const code =
      name[1] === 'x' || name[1] === 'X'
        ? Number.parseInt(name.slice(2), 16)
        : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
  });
}
