/**
 * The conformance suite: every case in the tables runs in patterm and in tmux
 * at the same size and must show the same screens (or xterm's, where the case
 * says tmux differs). CONFORMANCE_CASE=<part of a name> runs only the matching cases.
 */
import { after, before, describe, it } from 'node:test';
import { makeFixture, type Fixture } from './fixture.js';
import { runCase } from './run-case.js';
import { SEQUENCE_CASES } from './cases-sequences.js';
import { PROGRAM_CASES } from './cases-programs.js';
import { RESIZE_CASES } from './cases-resize.js';

/** Cases at once: each runs two terminals, and the machine has two cores shared with other test files. */
const CONCURRENT_CASES = 3;

const only = process.env.CONFORMANCE_CASE;
const cases = [...SEQUENCE_CASES, ...PROGRAM_CASES, ...RESIZE_CASES].filter((testCase) => !only || testCase.name.includes(only));

describe('conformance with tmux', { concurrency: CONCURRENT_CASES }, () => {
  let fixture: Fixture;
  before(() => {
    fixture = makeFixture();
  });
  after(() => fixture.remove());

  for (const testCase of cases) {
    it(testCase.name, { todo: testCase.todo }, () => runCase(testCase, fixture));
  }
});
