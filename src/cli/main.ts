import { runCli } from './program.js';

// `evalflow ...`: the bin (bin/evalflow.js, through dist) and `npm start` (through tsx) run this.
process.exitCode = await runCli(process.argv);
