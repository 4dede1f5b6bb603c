import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// The code blocks of the README and docs/, as a reader copies them: their language, their text
// (indentation of a list item removed) and the line each starts on.

export interface Block {
  document: string;
  /** The fence's language: `ts`, `sh`, `http`, ... ('' for none). */
  language: string;
  /** The line of the document the block's first line is on (from 1). */
  line: number;
  text: string;
}

export const documents = [
  'README.md',
  ...readdirSync('docs')
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
  'clients/python/README.md',
];

export function blocksOf(document: string): Block[] {
  const lines = readFileSync(document, 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[index] ?? '');
    if (!open) continue;
    const [, indent = '', language = ''] = open;
    const body: string[] = [];
    const start = index + 1;
    for (index++; index < lines.length && !/^\s*```\s*$/.test(lines[index] ?? ''); index++) {
      body.push((lines[index] ?? '').slice(indent.length));
    }
    blocks.push({ document, language, line: start + 1, text: `${body.join('\n')}\n` });
  }
  return blocks;
}

/**
 * A document's TypeScript blocks as one module, in order (later blocks use what earlier ones
 * declared, as a reader pasting them would), after `given`; written under .evalflow/test so its
 * `evalflow` imports resolve to this package. Returns the file and, for each of its lines, the
 * document's line it came from (0 for the given lines).
 */
export function writeModule(
  document: string,
  given: string,
  options: { skip?: (block: Block) => boolean; edit?: (text: string) => string } = {},
): { file: string; origins: number[] } {
  const { skip = () => false, edit = (text: string) => text } = options;
  const parts = [given, 'export {};'];
  const origins = [...given.split('\n').map(() => 0), 0];
  for (const block of blocksOf(document).filter((b) => b.language === 'ts' && !skip(b))) {
    const text = edit(block.text).replace(/\n$/, '');
    parts.push(text);
    origins.push(...text.split('\n').map((_, offset) => block.line + offset));
  }
  const dir = resolve('.evalflow', 'test', 'doc-blocks');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${document.replace(/[/.]/g, '-')}-${process.pid}.ts`);
  writeFileSync(file, `${parts.join('\n')}\n`);
  return { file, origins };
}
