import { floodScenario } from '../harness/flood-scenario.js';

export default floodScenario('flood-unicode', 'unicode', '100 MB, PTY to parsed grid: CJK, Hangul, emoji and combining marks', 24);
