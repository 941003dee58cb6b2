/**
 * The one text rule for every string a visitor sends (spec §3, §7.1): the server's schema
 * (server/submissionSchema.ts) refuses what breaks it with a 400, and the forms' fields
 * (src/components/FormFields.tsx) tell the visitor the same sentence before anything is sent, so a
 * request the browser keeps in its outbox is never one the server will refuse.
 *
 * A text is accepted when it is:
 * - well-formed Unicode: no lone surrogate (PostgreSQL cannot store one in `jsonb`);
 * - free of C0 and C1 control characters and DEL, except a line break (LF, CR) and a tab in the
 *   multi-line free-text fields: an ESC or a BEL would reach the team's terminal as a command;
 * - free of the line and paragraph separators (U+2028, U+2029) in one-line fields;
 * - free of bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), which
 *   make a text read in another order than it is stored (CVE-2021-42574, "Trojan Source");
 * - for a required field, holding at least one visible character: whitespace, zero-width and other
 *   default-ignorable characters (U+200B, U+3164 Hangul filler…), U+2800 (Braille blank) and U+1D159
 *   (null notehead) are not.
 * Accepted text is stored NFC-normalised ({@link normalizeText}).
 */

/** What kind of field a text fills: one line (names, answers, URL, email) or free text (description, notes). */
export interface TextRuleOptions {
  /** the use-case description and the notes: a line break and a tab are allowed */
  multiline?: boolean;
  /** a field that must hold at least one visible character */
  required?: boolean;
}

// A lone surrogate only matches \p{Cs} under the `u` flag: a well-formed pair is one code point.
const LONE_SURROGATE = /\p{Cs}/u;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
// eslint-disable-next-line no-control-regex -- as above, with LF, CR and tab left out
const CONTROL_EXCEPT_LINE_BREAK_TAB = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u;
const LINE_SEPARATOR = /[\u2028\u2029]/u;
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/u;
// A letter, number, punctuation or symbol that is not default-ignorable (U+3164, U+115F, U+FFA0 are
// letters that draw nothing), not the blank Braille pattern, not the null notehead (U+1D159).
const VISIBLE = /(?![\p{Default_Ignorable_Code_Point}\u2800\u{1D159}])[\p{L}\p{N}\p{P}\p{S}]/u;

/** The problem {@link textProblem} gives for a required field with no visible character. */
export const BLANK = 'is required';

/** `U+001B`: how a problem names the character it found. */
function codePointOf(match: RegExpExecArray): string {
  return `U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Checks a text against the rule above.
 * @param text - the value as typed or received (before {@link normalizeText})
 * @returns `null` when it is accepted, else the problem as the end of a sentence that names no field,
 *   e.g. `contains a control character (U+001B)` or `is required`. Never throws.
 */
export function textProblem(text: string, options: TextRuleOptions = {}): string | null {
  if (LONE_SURROGATE.test(text)) return 'is not well-formed Unicode (a lone surrogate)';
  const control = (options.multiline ? CONTROL_EXCEPT_LINE_BREAK_TAB : CONTROL).exec(text);
  if (control) return `contains a control character (${codePointOf(control)})`;
  const separator = options.multiline ? null : LINE_SEPARATOR.exec(text);
  if (separator) return `contains a line break (${codePointOf(separator)})`;
  const bidi = BIDI_CONTROL.exec(text);
  if (bidi) return `contains a text-direction control character (${codePointOf(bidi)})`;
  if (options.required && !VISIBLE.test(text)) return BLANK;
  return null;
}

/** Whether a text holds a visible character: what a required field needs (an optional one left blank is absent). */
export function hasVisibleText(text: string): boolean {
  return VISIBLE.test(text);
}

/**
 * The stored form of an accepted text: Unicode NFC, so that one name typed on two keyboards (`é` as
 * one code point or as `e` + U+0301) is stored, searched and exported alike.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFC');
}
