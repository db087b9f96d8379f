// src/server/protocol.ts: frames survive any cutting of the byte stream, in order, with
// their bytes exact; a zero-length or oversized frame is refused; a version mismatch is
// refused with words that say what to do, from either side.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import {
  decodeJson,
  encodeFrame,
  encodeJson,
  FRAME,
  FrameReader,
  MAX_FRAME_BYTES,
  PROTOCOL_VERSION,
  versionMismatch,
  type FrameType,
} from '../../src/server/protocol.js';

test('frames come back whole and in order however the stream is cut', () => {
  fc.assert(
    fc.property(
      fc.array(fc.record({ type: fc.constantFrom<FrameType>(FRAME.input, FRAME.output, FRAME.resize), payload: fc.uint8Array({ maxLength: 300 }) }), {
        maxLength: 20,
      }),
      fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 50 }),
      (frames, cuts) => {
        const stream = Buffer.concat(frames.map((f) => encodeFrame(f.type, Buffer.from(f.payload))));
        const r = new FrameReader();
        const got: { type: number; payload: number[] }[] = [];
        let at = 0;
        let i = 0;
        while (at < stream.length) {
          const n = cuts[i++ % cuts.length]!;
          for (const f of r.push(stream.subarray(at, at + n))) got.push({ type: f.type, payload: [...f.payload] });
          at += n;
        }
        assert.equal(
          got,
          frames.map((f) => ({ type: f.type, payload: [...f.payload] })),
        );
      },
    ),
  );
});

test('JSON frames round-trip', () => {
  const r = new FrameReader();
  const [f] = r.push(encodeJson(FRAME.hello, { protocol: PROTOCOL_VERSION, user: { name: 'ana', device: 'box' } }));
  assert.is(f!.type, FRAME.hello);
  assert.equal(decodeJson(f!), { protocol: PROTOCOL_VERSION, user: { name: 'ana', device: 'box' } });
});

test('a frame of length 0 or over the limit is an error, not a wait for 4 GB', () => {
  const zero = Buffer.from([0, 0, 0, 0, 1]);
  assert.throws(() => new FrameReader().push(zero), /frame of 0 bytes/);
  const huge = Buffer.alloc(5);
  huge.writeUInt32BE(MAX_FRAME_BYTES + 1, 0);
  assert.throws(() => new FrameReader().push(huge), /at most/);
});

test('a version mismatch is refused from either side, saying what to do', () => {
  const ours = { protocol: PROTOCOL_VERSION, baton: '0.2.0' };
  assert.is(versionMismatch({ protocol: PROTOCOL_VERSION, baton: '0.1.9' }, ours, 'server'), undefined, 'the same protocol talks');
  const r = versionMismatch({ protocol: PROTOCOL_VERSION + 1, baton: '0.3.0' }, ours, 'server')!;
  assert.match(r.message, /server \(0\.2\.0, protocol 1\) cannot talk to the client \(0\.3\.0, protocol 2\)/);
  assert.match(r.hint!, /baton kill-server/);
  assert.is(r.code, 5);
  assert.match(versionMismatch({ protocol: 0, baton: '0.0.1' }, ours, 'client')!.message, /client .* cannot talk to the server/);
});

test.run();
