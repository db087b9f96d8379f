// What a file-system error means to the user (src/fs-failure.ts): the machine-state
// errnos become one exit-2 message naming the path, the cause and the errno, with a hint
// that names BATON_HOME only for paths under it; anything else stays a bug.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BatonError } from '../../src/errors.js';
import { fsFailure, fsFailureCode, notePath } from '../../src/fs-failure.js';

const errno = (code: string, syscall: string, path?: string) => Object.assign(new Error(`${code}: ${syscall}`), { code, syscall, ...(path ? { path } : {}) });
const home = '/state/baton';

const f = suite('fs failure');

f('each machine-state errno: exit 2, the path, the cause and the code; a hint', () => {
  const cases: Array<[string, string, string, RegExp]> = [
    [
      'ENOSPC',
      'write',
      'cannot write /state/baton/conversations/x/transcript.jsonl: no space left on the device (ENOSPC)',
      /free some space.*BATON_HOME.*what was saved before is intact/,
    ],
    ['EDQUOT', 'write', 'cannot write /state/baton/conversations/x/transcript.jsonl: the disk quota is used up (EDQUOT)', /free some space/],
    [
      'EROFS',
      'open',
      'cannot open /state/baton/conversations/x/transcript.jsonl: the file system is read-only (EROFS)',
      /BATON_HOME to a directory on a writable file system/,
    ],
    ['EACCES', 'mkdir', 'cannot create /state/baton/conversations/x/transcript.jsonl: permission denied (EACCES)', /give your user access.*BATON_HOME/],
    ['EPERM', 'chmod', 'cannot change the mode of /state/baton/conversations/x/transcript.jsonl: operation not permitted (EPERM)', /give your user access/],
    [
      'ENOTDIR',
      'scandir',
      'cannot read /state/baton/conversations/x/transcript.jsonl: a part of the path is a file, not a directory (ENOTDIR)',
      /set BATON_HOME to a directory/,
    ],
  ];
  for (const [code, syscall, message, hint] of cases) {
    const e = fsFailure(errno(code, syscall, `${home}/conversations/x/transcript.jsonl`), { home });
    assert.instance(e, BatonError);
    assert.is(e!.exitCode, 2);
    assert.is(e!.message, message);
    assert.match(e!.hint ?? '', hint, code);
  }
});

f('outside BATON_HOME the hint does not send the user to BATON_HOME', () => {
  const e = fsFailure(errno('EROFS', 'open', '/repo/.git/index.lock'), { home });
  assert.not.match(e!.hint ?? '', /BATON_HOME/);
  assert.not.match(
    fsFailure(errno('ENOSPC', 'write', '/elsewhere/f'), { home: '/state/bat' })!.hint ?? '',
    /BATON_HOME/,
    'a sibling with the same prefix is not under it',
  );
});

f('a descriptor-level error gets the path it was about (notePath); other errors are not touched', () => {
  const e = notePath(errno('ENOSPC', 'write'), '/state/baton/x');
  assert.is(fsFailure(e)!.message, 'cannot write /state/baton/x: no space left on the device (ENOSPC)');
  const other = notePath(errno('EBADF', 'write'), '/x') as NodeJS.ErrnoException;
  assert.is(other.path, undefined);
});

f('anything else stays a bug: ENOENT, EBADF, plain errors; a BatonError passes through', () => {
  for (const e of [errno('ENOENT', 'open', '/x'), errno('EBADF', 'write'), new Error('boom'), 'text', undefined]) {
    assert.is(fsFailure(e), undefined);
    assert.is(fsFailureCode(e), undefined);
  }
  const b = new BatonError('b', 5);
  assert.is(fsFailure(b), b);
});

f.run();
