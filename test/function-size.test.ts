import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// A function that holds a whole feature makes a reader scroll to find where one operation starts:
// past LIMIT lines it becomes named functions per operation, in files named after them.
const LIMIT = 120;

interface Measured {
  /** `file:name`: the function's own name, else the name it is bound to, else its line. */
  where: string;
  lines: number;
}

/** Every function with a body in a source file, measured from its first line to its last. */
function functionsOf(path: string, text: string): Measured[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line;
  const found: Measured[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = node.getStart(source);
      const bound =
        ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent)
          ? node.parent.name
          : undefined;
      const name = (node.name ?? bound)?.getText(source) ?? `line ${lineOf(start) + 1}`;
      found.push({ where: `${path}:${name}`, lines: lineOf(node.end) - lineOf(start) + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const inSrc = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))
  .flatMap((file) => functionsOf(join('src', file), readFileSync(join('src', file), 'utf8')));

describe('function size', () => {
  it(`keeps every function in src within ${LIMIT} lines`, () => {
    const over = inSrc
      .filter(({ lines }) => lines > LIMIT)
      .map(({ where, lines }) => `${where}: ${lines} lines`);
    expect(over).toEqual([]);
  });

  it('measures functions, arrows and methods by name, nested ones too', () => {
    const text = [
      'export function outer() {',
      '  const inner = () => {',
      '    return 1;',
      '  };',
      '  return { method() { return inner(); } };',
      '}',
    ].join('\n');
    expect(functionsOf('a.ts', text)).toEqual([
      { where: 'a.ts:outer', lines: 6 },
      { where: 'a.ts:inner', lines: 3 },
      { where: 'a.ts:method', lines: 1 },
    ]);
  });
});
