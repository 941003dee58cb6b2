import { z } from 'zod';

/**
 * A calendar date as `YYYY-MM-DD` that PostgreSQL's `date` keeps: zod's check knows month lengths and
 * leap years (`2026-02-30` is refused), and the year is 0001 or later (ISO 8601's year 0000, 1 BC, is
 * refused by PostgreSQL). A cohort's start, from the command line and the console alike.
 */
export const calendarDate = z.iso.date().refine((date) => !date.startsWith('0000'), 'the year is 0001 or later');
