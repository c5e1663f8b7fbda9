import type { ConformanceCase } from './run-case.js';
export const PROGRAM_CASES: ConformanceCase[] = [];
