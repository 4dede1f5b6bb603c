import { runCli } from './program.js';

// `evalflow ...`: bin/evalflow.js (dist/ when installed, the sources in a checkout) and `npm start` run this.
process.exitCode = await runCli(process.argv);
