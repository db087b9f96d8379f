// plugins/gemini/headless.ts geminiArgs: a headless gemini turn's prompt, however short,
// goes on stdin with an empty --prompt=, never in argv (where `ps` shows it to every user).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { geminiArgs } from '../../plugins/gemini/headless.js';

test('a short prompt (a message, a brief) is never in argv: it goes on stdin', () => {
  const prompt = '[baton handoff brief] secret SECRET-IN-BRIEF\n\nfix it';
  const { argv, stdin } = geminiArgs({ prompt, yes: true, model: 'm', resume: 'abc', args: ['--debug'] });
  assert.equal(argv, ['--yolo', '-m', 'm', '--debug', '--resume', 'abc', '-o', 'stream-json', '--prompt=']);
  assert.is(stdin, prompt);
  assert.not.ok(argv.some((a) => a.includes('SECRET-IN-BRIEF')));
});

test.run();
