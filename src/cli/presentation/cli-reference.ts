import type { Argument, Command, Option } from 'commander';
import { commandsOf, pathOf } from '../program.js';
import { examplesOf } from './examples.js';
import { CLI_INVOCATION } from './invocation.js';

// The CLI section of docs/commands.md, written from commander's own definitions (the same ones
// `--help` prints), so the doc cannot drift from the commands: a test compares the two, and
// `npm run docs:cli` writes it.

export const CLI_SECTION_START =
  '<!-- cli-reference: written by `npm run docs:cli` from the commands themselves -->';
export const CLI_SECTION_END = '<!-- /cli-reference -->';

export function cliReference(program: Command): string {
  const lines: string[] = [
    '## The command line',
    '',
    '`npx evalflow --help` lists the commands and `npx evalflow <command> --help` shows each ' +
      "one's flags ([README](../README.md) says where `npx evalflow` runs). " +
      'Every command exits 0 when it worked and 1 on any error, which it prints as one line on ' +
      'stderr (`evalflow: <what is wrong>`); `doctor` and `conformance` also exit 1 when a check ' +
      'or a case fails, and `reevaluate start|status --watch` exits 3 when the batch’s budget ' +
      'paused it (it prints the command that raises the budget). With `--json`, a command prints ' +
      'one JSON value on stdout and nothing else; ' +
      'ledger entries, rules and score summaries have the HTTP API’s shapes. `--version` prints ' +
      "the package's version.",
    '',
    // The program's own options (`--home`), which every command takes.
    ...program.options
      .filter((option) => option.long !== '--version')
      .map((option) => `Every command takes \`${option.flags}\`: ${option.description}.\n`),
  ];
  for (const command of commandsOf(program)) {
    if (command === program || command.name() === 'help') continue;
    lines.push(...commandSection(command), '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

function commandSection(command: Command): string[] {
  const usage = [pathOf(command), ...command.registeredArguments.map(argumentUsage)].join(' ');
  const lines = [`### \`${usage}\``, '', prose(sentence(command.description()))];
  const subcommands = command.commands.filter((sub) => sub.name() !== 'help');
  if (subcommands.length > 0) {
    lines.push('', ...subcommands.map((sub) => `- \`${sub.name()}\`: ${prose(sub.description())}`));
    return lines;
  }
  const rows = [
    ...command.registeredArguments.map((argument) => [
      `\`${argumentUsage(argument)}\``,
      prose(argument.description),
      '',
    ]),
    ...command.options.map((option) => [
      `\`${option.flags}\``,
      prose(optionText(option)),
      defaultOf(option),
    ]),
  ];
  if (rows.length > 0) {
    lines.push('', '| argument or flag | what it does | default |', '|---|---|---|');
    for (const row of rows) lines.push(`| ${row.map(cell).join(' | ')} |`);
  }
  const examples = examplesOf(command);
  if (examples.length > 0) lines.push('', '```sh', ...examples.map(asTyped), '```');
  return lines;
}

/** An example as a reader types it (CLI_INVOCATION). */
const asTyped = (example: string) =>
  example.replace(/^((?:[A-Z_]+=\S+ )*)evalflow /, `$1${CLI_INVOCATION} `);

const argumentUsage = (argument: Argument) => {
  const name = `${argument.name()}${argument.variadic ? '...' : ''}`;
  return argument.required ? `<${name}>` : `[${name}]`;
};

function optionText(option: Option): string {
  const choices = option.argChoices ? ` (one of ${option.argChoices.join(', ')})` : '';
  return `${option.mandatory ? 'required: ' : ''}${option.description}${choices}`;
}

const defaultOf = (option: Option) =>
  option.defaultValue === undefined ? '' : `\`${String(option.defaultValue)}\``;

const cell = (text: string) => text.replaceAll('|', '\\|');
/** Text outside code: `<id>` would read as an HTML tag. */
const prose = (text: string) => text.replaceAll('<', '&lt;').replaceAll('>', '&gt;');

const sentence = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
