import { floodScenario } from '../harness/flood-scenario.js';

export default floodScenario('scroll-regions', 'scroll-regions', '100 MB, PTY to parsed grid: vtebench-style scrolling inside DECSTBM regions, IL/DL', 20, true);
