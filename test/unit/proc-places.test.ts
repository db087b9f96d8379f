// Where a process is, as /proc spells it (src/proc/places.ts): NUL-separated command lines
// and environments, links to files that were deleted, and what lies under a directory.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { linkPath, splitNul, underDir } from '../../src/proc/places.js';

const p = suite('proc places');

p('a NUL-separated list: one item per argument, the trailing NUL ends the last', () => {
  assert.equal(splitNul('sleep\x00300\x00/tmp/a b/c\x00'), ['sleep', '300', '/tmp/a b/c']);
  assert.equal(splitNul('HOME=/h\x00EMPTY=\x00'), ['HOME=/h', 'EMPTY=']);
  assert.equal(splitNul('a\x00\x00b\x00'), ['a', '', 'b'], 'an empty argument is kept');
  assert.equal(splitNul(''), []);
  // A process that rewrote its title may leave no trailing NUL.
  assert.equal(splitNul('node server'), ['node server']);
});

p('a link to a deleted file names the file, without the kernel’s suffix', () => {
  assert.is(linkPath('/home/u/.codex/packages/codex (deleted)'), '/home/u/.codex/packages/codex');
  assert.is(linkPath('/usr/bin/node'), '/usr/bin/node');
  assert.is(linkPath('/tmp/a (deleted) b'), '/tmp/a (deleted) b', 'only at the end');
});

p('under a directory: the directory itself and what lies below it, not a sibling sharing its prefix', () => {
  const under = underDir('/tmp/scratch-1/');
  assert.ok(under('/tmp/scratch-1'));
  assert.ok(under('/tmp/scratch-1/home/bin/codex'));
  assert.not.ok(under('/tmp/scratch-10/home'));
  assert.not.ok(under('/tmp'));
  assert.not.ok(under('relative/tmp/scratch-1/x'));
  assert.not.ok(under(undefined));
  assert.ok(underDir('/')('/usr/bin/env'));
});

p.run();
