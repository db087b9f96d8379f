// The one door to blessed (the full-screen widget library): every other module of the TUI
// imports it from here, so a change of library, version or import quirk touches one file.
// Only src/tui may import this module.

import blessed from 'blessed';

export default blessed;
