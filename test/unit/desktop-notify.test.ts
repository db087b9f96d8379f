// The bytes that tell the user's terminal a tab needs them (src/tui/desktop-notify.ts) and
// the settings that choose them (src/tui/notify-settings.ts): the bell, OSC 9 and/or OSC 777
// as the terminal is known to show, the text cleaned of anything that could end the sequence
// early or smuggle another one in, and a settings file baton cannot use said, not obeyed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_NOTIFY, desktopStyleFor, notificationBytes } from '../../src/tui/desktop-notify.js';
import { parseNotifySettings, readNotifySettings } from '../../src/tui/notify-settings.js';
import { needsYouNotification } from '../../src/tui/needs-you-tabs.js';

const s = suite('desktop-notify');
const n = { title: 'baton', body: '1:Gemini CLI needs you' };

s('by default: the bell, then OSC 9 and OSC 777 for a terminal that says nothing of itself', () => {
  assert.is(
    notificationBytes(n, DEFAULT_NOTIFY, { term: 'xterm-256color' }),
    '\x07\x1b]9;baton: 1:Gemini CLI needs you\x07\x1b]777;notify;baton;1:Gemini CLI needs you\x07',
  );
});

s('a terminal known to show one of them gets that one only (one that shows both would show it twice)', () => {
  assert.is(desktopStyleFor({ termProgram: 'iTerm.app' }), 'osc9');
  assert.is(desktopStyleFor({ lcTerminal: 'iTerm2', term: 'xterm-256color' }), 'osc9', 'iTerm2 over ssh: LC_TERMINAL passes, TERM_PROGRAM does not');
  assert.is(desktopStyleFor({ termProgram: 'WezTerm' }), 'osc9');
  assert.is(desktopStyleFor({ term: 'xterm-ghostty' }), 'osc9');
  assert.is(desktopStyleFor({ term: 'xterm-256color', vteVersion: '7600' }), 'osc777');
  assert.is(desktopStyleFor({ term: 'foot' }), 'osc777');
  assert.is(desktopStyleFor({ term: 'rxvt-unicode-256color' }), 'osc777');
  assert.is(desktopStyleFor({ term: 'screen-256color' }), 'both');
  assert.is(notificationBytes(n, DEFAULT_NOTIFY, { termProgram: 'iTerm.app' }), '\x07\x1b]9;baton: 1:Gemini CLI needs you\x07');
});

s('the settings choose: no bell, one style, or nothing at all', () => {
  assert.is(notificationBytes(n, { bell: false, desktop: 'osc777' }, { termProgram: 'iTerm.app' }), '\x1b]777;notify;baton;1:Gemini CLI needs you\x07');
  assert.is(notificationBytes(n, { bell: true, desktop: 'off' }, {}), '\x07');
  assert.is(notificationBytes(n, { bell: false, desktop: 'off' }, {}), '');
});

s("a tab's label (a program may set it) cannot end the sequence early, add a field, or carry another sequence", () => {
  const evil = { title: 'baton', body: '1:x\x07\x1b]52;c;AAAA\x07;rm\nnext' };
  const out = notificationBytes(evil, { bell: false, desktop: 'both' }, {});
  assert.is(out, '\x1b]9;baton: 1:x,rm next\x07\x1b]777;notify;baton;1:x,rm next\x07');
  const long = notificationBytes({ title: 'baton', body: 'y'.repeat(1000) }, { bell: false, desktop: 'osc9' }, {});
  assert.ok(long.length < 260, 'cut to a notification-sized text');
});

s('the notification names the tab by its key and title, and what it waits for', () => {
  assert.equal(needsYouNotification(0, 'Gemini CLI', 'approval'), { title: 'baton', body: '1:Gemini CLI needs you' });
  assert.equal(needsYouNotification(2, 'Codex CLI', 'done'), { title: 'baton', body: '3:Codex CLI is done' });
});

s('settings.json: notify read when valid; a bad value or file is a warning naming it, and the defaults apply', () => {
  assert.equal(parseNotifySettings({ notify: { bell: false, desktop: 'osc9' } }, 'f'), { settings: { bell: false, desktop: 'osc9' }, warnings: [] });
  assert.equal(parseNotifySettings({ worktreeSetup: ['npm', 'ci'] }, 'f'), { settings: DEFAULT_NOTIFY, warnings: [] });
  const bad = parseNotifySettings({ notify: { bell: 'yes', desktop: 'osc99' } }, '/x/settings.json');
  assert.equal(bad.settings, DEFAULT_NOTIFY);
  assert.is(bad.warnings.length, 2);
  assert.match(bad.warnings[0]!, /notify\.bell in \/x\/settings\.json must be true or false/);
  assert.match(bad.warnings[1]!, /notify\.desktop in \/x\/settings\.json must be one of auto, osc9, osc777, both, off/);
  const home = mkdtempSync(join(tmpdir(), 'baton-notify-'));
  try {
    const env = { XDG_CONFIG_HOME: home };
    assert.equal(readNotifySettings(env), { settings: DEFAULT_NOTIFY, warnings: [] }, 'no file: the defaults');
    mkdirSync(join(home, 'baton'));
    writeFileSync(join(home, 'baton', 'settings.json'), '{"notify": {"bell": false}');
    const broken = readNotifySettings(env);
    assert.equal(broken.settings, DEFAULT_NOTIFY);
    assert.match(broken.warnings[0]!, /settings\.json is not valid JSON/);
    writeFileSync(join(home, 'baton', 'settings.json'), '{"notify": {"bell": false}}');
    assert.equal(readNotifySettings(env).settings, { bell: false, desktop: 'auto' });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

s.run();
