import { floodScenario } from '../harness/flood-scenario.js';

export default floodScenario('flood-ascii', 'ascii', '100 MB, PTY to parsed grid: Log-like ASCII lines', 15);
