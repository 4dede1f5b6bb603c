import type { Command } from 'commander';

// Each command's examples: shown at the end of its --help, and in docs/commands.md, which is
// written from the same definitions (`npm run docs:cli`).

const examples = new WeakMap<Command, readonly string[]>();

/** Adds example invocations to a command's help; returns the command for chaining. */
export function withExamples(command: Command, ...lines: string[]): Command {
  examples.set(command, lines);
  return command.addHelpText(
    'after',
    `\n${lines.length > 1 ? 'Examples' : 'Example'}:\n${lines.map((line) => `  ${line}`).join('\n')}`,
  );
}

export const examplesOf = (command: Command): readonly string[] => examples.get(command) ?? [];
