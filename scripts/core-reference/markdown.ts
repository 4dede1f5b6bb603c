// The few Markdown pieces the generated reference is made of.

/** A table cell: pipes escaped, line breaks folded, so any text fits in one. */
export const cell = (text: string): string =>
  text.replaceAll('|', '\\|').replaceAll('\n', ' ').trim();

export function table(headings: readonly string[], rows: readonly (readonly string[])[]): string[] {
  return [
    `| ${headings.join(' | ')} |`,
    `|${headings.map(() => '---').join('|')}|`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ];
}

export const code = (text: string): string => `\`${text}\``;

/** A comment's text as one paragraph: comment markers and line breaks dropped. */
export function paragraph(comment: string): string {
  return comment
    .split('\n')
    .map((line) => line.replace(/^\s*(\/\*\*?|\*\/|\*|\/\/)\s?/, '').trim())
    .filter((line) => line !== '' && line !== '/')
    .join(' ')
    .replace(/\s*\*\/$/, '')
    .trim();
}
