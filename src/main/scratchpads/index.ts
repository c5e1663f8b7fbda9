export { ScratchpadStore, ScratchpadError, MAX_SCRATCHPAD_BYTES, MAX_SCRATCHPAD_JSON_BYTES, ABSENT_REVISION, revisionOf } from './scratchpad-store.js';
export type { ScratchpadChange, ScratchpadContent, ScratchpadEntry, ScratchpadErrorCode, ScratchpadStoreOptions } from './scratchpad-store.js';
export { scratchpadNameProblem, isScratchpadName, MAX_SCRATCHPAD_NAME_LENGTH } from './scratchpad-name.js';
