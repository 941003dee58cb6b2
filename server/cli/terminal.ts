import Table from 'cli-table3';

/** An aligned table without borders, for a terminal. */
export function table(head: string[], rows: string[][]): string {
  const blank = { top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ' };
  const t = new Table({ head, chars: blank, style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 } });
  t.push(...rows);
  return t.toString();
}

// What a terminal must not receive raw: controls (ESC starts a command), format characters (U+202E
// reverses the text after it, U+200B hides), line and paragraph separators, private-use, unassigned
// code points and lone surrogates.
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/gu;
const INVISIBLE_BUT_LINE_FEED = /(?!\n)[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cn}\p{Cs}]/gu;
const hex = (unit: number) => unit.toString(16).toUpperCase().padStart(4, '0');

/** A cell of the `list` table: every invisible character shown as its code point, `\u{202E}`. */
export function forTerminal(text: string): string {
  return text.replace(INVISIBLE, (char) => `\\u{${hex(char.codePointAt(0)!)}}`);
}

/**
 * JSON for a terminal and for scripts alike: the same value (every invisible character is written as
 * the JSON escape `\\u202e`, which parses back to it), never a raw control or direction override. The
 * line feeds left are the indentation's; inside strings JSON.stringify has escaped them already.
 */
export function jsonForTerminal(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(INVISIBLE_BUT_LINE_FEED, (char) =>
    Array.from({ length: char.length }, (_, i) => `\\u${hex(char.charCodeAt(i)).toLowerCase()}`).join(''),
  );
}
