import { floodScenario } from '../harness/flood-scenario.js';

export default floodScenario('cursor-motion', 'cursor-motion', '100 MB, PTY to parsed grid: vtebench-style cursor motion: CUP, relative moves, erases', 17, true);
