import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { canonicalKey, keyBytes, parseKeys } from '../../src/tui/key-parse.js';

const s = suite('key-parse');
const names = (data: string) => parseKeys(data).keys.map((k) => k.name);

s('control keys, Alt combinations, arrows, function keys and text are named', () => {
  assert.equal(names('\x02a\x1bx\x1b[A\x1bOP\x1b[15~\x1b[5~\r\x7f\t \x1b'), [
    'C-b',
    'a',
    'M-x',
    'Up',
    'F1',
    'F5',
    'PageUp',
    'Enter',
    'Backspace',
    'Tab',
    'Space',
    'Escape',
  ]);
  assert.equal(names('日😀'), ['日', '😀']);
  assert.equal(names('\x1b\x02'), ['M-C-b']);
});

s('Alt sent as an ESC prefix to a cursor or function key is one key (ESC ESC [ A is M-Up)', () => {
  assert.equal(parseKeys('\x1b\x1b[Ax\x1b\x1bOP\x1b\x1b[5~'), {
    keys: [
      { name: 'M-Up', seq: '\x1b\x1b[A' },
      { name: 'x', seq: 'x' },
      { name: 'M-F1', seq: '\x1b\x1bOP' },
      { name: 'M-PageUp', seq: '\x1b\x1b[5~' },
    ],
    rest: '',
  });
  assert.equal(names('\x1b\x1b'), ['M-Escape']);
  assert.equal(parseKeys('\x1b\x1b[', false), { keys: [], rest: '\x1b\x1b[' });
  assert.is(canonicalKey('M-Up'), 'M-Up');
});

s('each key keeps its exact bytes; joined they are the input again', () => {
  fc.assert(
    fc.property(
      fc.array(fc.constantFrom('\x02', 'a', '\x1bx', '\x1b[A', '\x1b\x1b[B', '\x1b', '\x1b[1;5C', '\x1bOP', '\x1b[15~', '日', '😀', '\r', '\x1b[200~'), {
        maxLength: 20,
      }),
      (parts) => {
        const data = parts.join('');
        return (
          parseKeys(data)
            .keys.map((k) => k.seq)
            .join('') === data
        );
      },
    ),
  );
});

s('an incomplete escape sequence at the end is kept for the next read unless final', () => {
  assert.equal(parseKeys('a\x1b[', false), { keys: [{ name: 'a', seq: 'a' }], rest: '\x1b[' });
  assert.equal(names('a\x1b'), ['a', 'Escape']);
});

s('key names map to the bytes a terminal sends, and back', () => {
  assert.is(keyBytes('C-b'), '\x02');
  assert.is(keyBytes('C-a'), '\x01');
  assert.is(keyBytes('C-Space'), '\x00');
  assert.is(keyBytes('M-a'), '\x1ba');
  assert.is(keyBytes('PageUp'), '\x1b[5~');
  assert.is(keyBytes('F5'), '\x1b[15~');
  assert.is(keyBytes('Enter'), '\r');
  assert.is(keyBytes('nonsense'), undefined);
  for (const k of ['C-b', 'M-x', 'Up', 'Down', 'PageUp', 'PageDown', 'F1', 'F5', 'F12', 'Enter', 'Escape', 'Tab', 'Space', '?', '[', '0', 'c']) {
    assert.is(canonicalKey(k), k, k);
  }
  assert.is(canonicalKey('C-@'), 'C-Space');
});

s.run();
