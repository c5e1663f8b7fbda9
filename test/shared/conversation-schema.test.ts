import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fillArgs, readField } from '../../src/shared/conversation-schema.js';
import { parsePreset } from '../../src/shared/preset-schema.js';

const problems = (conversation: unknown) => {
  const result = parsePreset('agent', { name: 'x', argv: ['x'], conversation });
  return result.ok ? [] : result.problems;
};

test('a preset\'s conversation section is checked field by field, naming what is wrong', () => {
  assert.deepEqual(problems({ id: { kind: 'chosen_uuid', args: ['--session-id', '{id}'] }, resume_args: ['--resume', '{id}'] }), []);
  assert.match(problems({ id: { kind: 'chosen_uuid', args: ['--session-id'] }, resume_args: ['--resume', '{id}'] }).join(), /conversation\.id\.args: must contain "\{id\}"/);
  assert.match(problems({ id: { kind: 'open_file', path_pattern: 'rollout-(.*)\\.jsonl$' }, resume_args: ['{id}'] }).join(), /conversation\.id\.path_pattern: must mark the conversation id with a named group/);
  assert.match(problems({ id: { kind: 'open_file', path_pattern: '(?<id>[' }, resume_args: ['{id}'] }).join(), /conversation\.id\.path_pattern: is not a valid regular expression/);
  assert.match(problems({ id: { kind: 'listing', argv: [], id_field: 'id', directory_field: 'dir', created_field: 'time created' }, resume_args: ['{id}'] }).join(), /conversation\.id\.argv: must name a program.*conversation\.id\.created_field: must be a field name/s);
  assert.match(
    problems({ id: { kind: 'chosen_uuid', args: ['{id}'] }, report: { args: ['--settings', '{settings}'], settings: { hooks: {} }, fields: { id: 'session_id' } }, resume_args: ['{id}'] }).join(),
    /conversation\.report\.settings: must contain the string "\{command\}"/,
  );
  assert.match(problems({ id: { kind: 'guess_newest' }, resume_args: ['{id}'] }).join(), /conversation\.id\.kind: .*"guess_newest"/);
  assert.match(problems({ id: { kind: 'chosen_uuid', args: ['{id}'] } }).join(), /conversation\.resume_args: required field is missing/);
});

test('fields are read by dotted paths, and placeholders filled in every argument', () => {
  assert.equal(readField({ payload: { cwd: '/p' } }, 'payload.cwd'), '/p');
  assert.equal(readField({ payload: null }, 'payload.cwd'), undefined);
  assert.equal(readField('text', 'id'), undefined);
  assert.deepEqual(fillArgs(['resume', '{id}', '--x={id}'], '{id}', 'abc'), ['resume', 'abc', '--x=abc']);
});
