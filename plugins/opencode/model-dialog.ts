// What opencode 1.18's model dialog ("Select model", ctrl+x m) shows, read from the tab's
// screen lines: whether it is open, what its search box holds, and its rows in the order its
// selection moves through them. A row is the model's title (cut at 61 characters with "…"),
// its provider's name at the dialog's right edge, and "●" before the current one. The dialog
// is drawn over the session's text: only the columns between its title and its "esc" are its
// own. Pure.

export interface DialogRow {
  title: string;
  provider: string;
  current: boolean;
}

export interface ModelDialog {
  /** What the search box shows: the filter typed, or its "Search" placeholder. */
  search: string;
  /** The rows on screen, top to bottom (the selection's order; after a filter it starts on the first). */
  rows: DialogRow[];
}

const HEADER = /Select model\s+esc/;
/** The dialog's own key hints, the line after its rows. */
const FOOTER = /Connect provider|View all providers|ctrl\+a|ctrl\+f/;
const ROW = /^(●\s*)?(\S.*?)\s{2,}(\S.*)$/;

/** The model dialog on `lines`, or undefined when it is not open. */
export function readModelDialog(lines: readonly string[]): ModelDialog | undefined {
  const at = lines.findIndex((l) => HEADER.test(l));
  if (at < 0) return undefined;
  const header = lines[at]!;
  const left = header.indexOf('Select model');
  const right = header.indexOf('esc', left) + 3;
  // The current row's "●" sits two columns left of the titles.
  const own = (l: string | undefined) => (l ?? '').slice(Math.max(0, left - 2), right).trim();
  const search = own(lines[at + 2]);
  const rows: DialogRow[] = [];
  for (let i = at + 3; i < lines.length; i++) {
    const text = own(lines[i]);
    if (!text) continue;
    if (FOOTER.test(text)) break;
    const m = ROW.exec(text);
    // A line without a provider at the right is a group's heading, not a row one can choose.
    if (m) rows.push({ title: m[2]!, provider: m[3]!, current: !!m[1] });
  }
  return { search, rows };
}

/** Whether `row` is the model opencode's ACP answer names `name` ("<provider name>/<title>"). */
export function rowIs(row: DialogRow, name: string): boolean {
  const full = `${row.provider}/${row.title}`;
  if (full === name) return true;
  return row.title.endsWith('…') && name.startsWith(full.slice(0, -1)) && name.length > full.length - 1;
}

/** What is typed into the search box for a model titled `title`: its letters, digits, spaces and . _ - only (the search matches a subsequence, so what is left out still finds it). */
export function searchText(title: string): string {
  return title
    .replace(/[^A-Za-z0-9 ._-]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 60);
}
