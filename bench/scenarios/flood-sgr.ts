import { floodScenario } from '../harness/flood-scenario.js';

export default floodScenario('flood-sgr', 'sgr', '100 MB, PTY to parsed grid: Dense SGR colour: 16, 256 and truecolour, attributes', 17);
