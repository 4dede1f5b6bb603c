// Helpers for testing evalflow adapters and hosts (`evalflow/testing`): the contract suites and
// the in-memory adapters they run against. A placeholder until the full testing surface lands.
export {
  checkScoreConfigStore,
  checkScoreSink,
  InMemoryScoreConfigStore,
  InMemoryScoreSink,
} from '../scores/index.js';
