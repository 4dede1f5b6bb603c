import module from 'node:module';

// `evalflow ...`: bin/evalflow.js (dist/ when installed, the sources in a checkout) and `npm start` run this.
// Node 22.1+ keeps the compiled code of the modules between starts (a worker's restart loads
// hundreds; NODE_COMPILE_CACHE says where, else the temp folder); Node 20 has no such cache. The
// program is imported after it is on, since a static import compiles before this line runs.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
const { runCli } = await import('./program.js');
process.exitCode = await runCli(process.argv);
