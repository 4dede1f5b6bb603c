import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { paragraph } from './markdown.js';

// What only the source text holds: the comments that explain each schema and field, and the
// event and rejection types, which are TypeScript types rather than zod schemas. Read with the
// TypeScript compiler, so the reference quotes the definitions themselves.

const parsed = new Map<string, ts.SourceFile>();
function parse(path: string): ts.SourceFile {
  let file = parsed.get(path);
  if (file === undefined) {
    file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    parsed.set(path, file);
  }
  return file;
}

type Style = 'line' | 'doc' | 'any';
const styleOf = (text: string): Style => (text.startsWith('/**') ? 'doc' : 'line');

/** The comments just before a node: line comments (prose), doc comments (a declaration's), or both. */
function commentBefore(file: ts.SourceFile, node: ts.Node, style: Style = 'any'): string {
  const ranges = ts.getLeadingCommentRanges(file.text, node.getFullStart()) ?? [];
  const texts = ranges.map((range) => file.text.slice(range.pos, range.end));
  return paragraph(texts.filter((text) => style === 'any' || styleOf(text) === style).join('\n'));
}

const declaredName = (statement: ts.Statement): string | undefined => {
  if (ts.isVariableStatement(statement)) {
    const [declaration] = statement.declarationList.declarations;
    return declaration && ts.isIdentifier(declaration.name) ? declaration.name.text : undefined;
  }
  if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) {
    return statement.name.text;
  }
  return undefined;
};

function statementOf(path: string, name: string): ts.Statement {
  const statement = parse(path).statements.find((s) => declaredName(s) === name);
  if (statement === undefined) throw new Error(`${path} declares no ${name}`);
  return statement;
}

/** The comment that opens a module: the one before its first statement after the imports. */
export function moduleComment(path: string): string {
  const file = parse(path);
  const first = file.statements.find((s) => !ts.isImportDeclaration(s));
  return first === undefined ? '' : commentBefore(file, first, 'line');
}

/** The doc comment on a declaration (`export const X`, `export interface X`). */
export function commentOf(path: string, name: string): string {
  return commentBefore(parse(path), statementOf(path, name), 'doc');
}

/** The comments on the fields of `export const name = z.strictObject({ ... })`, by field. */
export function fieldComments(path: string, name: string): Map<string, string> {
  const file = parse(path);
  const comments = new Map<string, string>();
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node)) {
      for (const property of node.properties) {
        if (ts.isPropertyAssignment(property) && ts.isIdentifier(property.name)) {
          const comment = commentBefore(file, property);
          if (comment !== '') comments.set(property.name.text, comment);
        }
      }
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(statementOf(path, name));
  return comments;
}

export interface Member {
  name: string;
  type: string;
  optional: boolean;
  comment: string;
}

/**
 * The type checker over some modules and what they import. `names` maps a type's full text to
 * the word the reference uses for it (an actor, a target), so a field shows `target` rather
 * than the union it expands to.
 */
export function typesOf(paths: readonly string[]) {
  const program = ts.createProgram([...paths], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const text = (type: ts.Type) =>
    checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation);
  const typeOf = (path: string, name: string): ts.Type => {
    const file = program.getSourceFile(path);
    const module = file && checker.getSymbolAtLocation(file);
    const found =
      module && checker.getExportsOfModule(module).find((symbol) => symbol.name === name);
    if (found === undefined) throw new Error(`${path} exports no type ${name}`);
    return checker.getDeclaredTypeOfSymbol(found);
  };
  const names = new Map<string, string>();
  const membersOf = (type: ts.Type): Member[] =>
    checker.getPropertiesOfType(type).map((property) => {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      const propertyType =
        declaration === undefined
          ? checker.getDeclaredTypeOfSymbol(property)
          : checker.getTypeOfSymbolAtLocation(property, declaration);
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
      const written = text(propertyType).replaceAll(' | undefined', '');
      const named = [...names].reduce((all, [full, word]) => all.replaceAll(full, word), written);
      return {
        name: property.name,
        type: named,
        optional,
        comment: paragraph(ts.displayPartsToString(property.getDocumentationComment(checker))),
      };
    });
  return {
    /** Writes the type `name` of `path` as `word` wherever a member's type spells it out. */
    name(path: string, name: string, word: string): void {
      names.set(text(typeOf(path, name)), word);
    },
    /** The types a union alias (`type Event = A | B`) is made of, in order, with their members. */
    unionMembers(path: string, name: string) {
      const union = typeOf(path, name);
      if (!union.isUnion()) throw new Error(`${name} is not a union`);
      return union.types.map((type) => {
        const symbol = type.aliasSymbol ?? type.getSymbol();
        const comment = symbol
          ? ts.displayPartsToString(symbol.getDocumentationComment(checker))
          : '';
        return { name: symbol?.name ?? '', comment: paragraph(comment), members: membersOf(type) };
      });
    },
    members: (path: string, name: string): Member[] => membersOf(typeOf(path, name)),
  };
}
