// node:test reporter that prints only the tests that failed (todos excluded),
// after everything else, so the tail of a long CI log names them.
import { inspect } from 'node:util';

const FIRST_LINES_OF_ERROR = 12; // enough for an assertion diff, short enough to stay in the tail

function describeError(error) {
  const cause = error?.cause ?? error;
  const text = cause instanceof Error ? (cause.stack ?? cause.message) : inspect(cause);
  return text.split('\n').slice(0, FIRST_LINES_OF_ERROR).map((line) => `    ${line}`).join('\n');
}

export default async function* failuresReporter(source) {
  const failures = [];
  for await (const event of source) {
    if (event.type !== 'test:fail') continue;
    const { name, file, line, details, todo, skip } = event.data;
    if (todo !== undefined || skip !== undefined) continue;
    // A suite that fails only because a subtest failed adds nothing.
    if (details?.error?.failureType === 'subtestsFailed') continue;
    failures.push(`✖ ${name}\n    at ${file ?? '?'}:${line ?? '?'}\n${describeError(details?.error)}\n`);
  }
  yield failures.length === 0
    ? '\nfailing tests: none\n'
    : `\nfailing tests (${failures.length}):\n${failures.join('\n')}`;
}
