import { InvalidArgumentError, Option } from 'commander';
import { TEXT_LIMITS } from '#shared/submission';
import { textProblem } from '#shared/text';
import { calendarDate } from '../db/calendarDate.ts';
import { recordReasonProblem } from '../db/privacySteps.ts';
import { addressOf } from '../db/mailbox.ts';

/** A request id as `list` prints it: a UUID (anything else is no request, without asking the database). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A request id argument in lower case, as the database prints it (RFC 9562 §4: case-insensitive on input). */
export function requestIdArgument(value: string): string {
  return value.toLowerCase();
}

/** Exit with a code and a one-line message (1: not found, 2: bad arguments). */
export class ExitError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
  }
}

export function kindOption() {
  return new Option('--kind <kind>', 'only invite or privacy requests').choices(['invite', 'privacy']);
}

export function isoDate(value: string): string {
  if (!calendarDate.safeParse(value).success) throw new InvalidArgumentError('expected a date as YYYY-MM-DD that exists.');
  return value;
}

/** A one-line text of at most `max` characters as stored (NFC): the text rule of shared/text.ts, as for visitors and the console. */
function oneLine(value: string, max: number): string {
  const text = value.normalize('NFC');
  if (text.length > max) throw new InvalidArgumentError(`the text is longer than ${max} characters.`);
  const problem = textProblem(text, { required: true });
  if (problem) throw new InvalidArgumentError(`the text ${problem}.`);
  return text;
}

/** A one-line text the team writes into a record or a mail (a reason, a note): at most `TEXT_LIMITS.long` characters, as in the console. */
export function oneLineText(value: string): string {
  return oneLine(value, TEXT_LIMITS.long);
}

/**
 * A name the team gives (a new cohort's, a member's, `--by`): at most `TEXT_LIMITS.short` characters, as in
 * the console. `--cohort` names an existing cohort as {@link oneLineText}: one made before the limit keeps its name.
 */
export function oneLineName(value: string): string {
  return oneLine(value, TEXT_LIMITS.short);
}

/**
 * A reason kept in the record of 11 CCR §7101, which outlives `erase`: one-line text without an email
 * address (server/db/privacySteps.ts `recordReasonProblem`), so that the record holds nothing that names the person.
 */
export function recordReason(value: string): string {
  const text = oneLineText(value);
  const problem = recordReasonProblem(text);
  if (problem) throw new InvalidArgumentError(problem);
  return text;
}

export function email(value: string): string {
  if (!/^[^\s@]+@[^\s@]+$/.test(value.trim())) throw new InvalidArgumentError('expected an email address.');
  return addressOf(value);
}
