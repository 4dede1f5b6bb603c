/**
 * How a reader runs the CLI, in every command the CLI prints for them to type: `npx evalflow`
 * runs in a checkout (where `evalflow` is not on the PATH) and where the package is installed.
 */
export const CLI_INVOCATION = 'npx evalflow';
