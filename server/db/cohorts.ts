import { asc, sql } from 'drizzle-orm';
import type { Db } from './database.ts';
import { audit } from './team.ts';
import { cohorts, submissions } from './schema.ts';

// The cohorts an accepted invite request joins (spec §2's review): listed, named and created here,
// counted and filled by a decision (server/db/decisions.ts).

/** A cohort with how many accepted requests it holds. */
export interface CohortView {
  id: string;
  name: string;
  /** `YYYY-MM-DD` */
  startsOn: string;
  capacity: number | null;
  accepted: number;
}

/** The cohorts, by start date, each with its accepted requests counted. */
export async function listCohorts(db: Db): Promise<CohortView[]> {
  return db
    .select({
      id: cohorts.id,
      name: cohorts.name,
      startsOn: cohorts.startsOn,
      capacity: cohorts.capacity,
      accepted: sql<number>`(select count(*)::int from ${submissions} s where s.cohort_id = "cohorts"."id")`,
    })
    .from(cohorts)
    .orderBy(asc(cohorts.startsOn), asc(cohorts.name));
}

/**
 * A cohort's name as it is stored and looked up: NFKC-normalised (a no-break space is a space, a full-width
 * `Ｔ` a `T`), then trimmed, so that no look-alike of a cohort ("Two ", "Two\u00a0") is another cohort.
 */
export const cohortNameOf = (name: string): string => name.normalize('NFKC').trim();

/** The cohort `name` (as {@link cohortNameOf} stores it) names, whatever its case. */
export const namedCohort = (name: string) => sql`lower(${cohorts.name}) = lower(${cohortNameOf(name)})`;

/**
 * Creates a cohort, its name as {@link cohortNameOf} makes it, and writes it to the team's audit as
 * `cohort added` (`via`: `cli` or `console`), in the caller's transaction. Names are unique whatever their
 * case: the database's unique index on `lower(name)` holds across instances, and under the team's write
 * lock the names are compared in Unicode lower case too (PostgreSQL's `lower` under the C collation folds
 * ASCII only).
 * @returns the new cohort; undefined when one of that name exists
 */
export async function addCohort(
  db: Db,
  cohort: { name: string; startsOn: string; capacity: number | null; by: string; audit: { memberId: string | null; via: 'cli' | 'console'; at: Date } },
): Promise<CohortView | undefined> {
  const name = cohortNameOf(cohort.name);
  const taken = await db.select({ name: cohorts.name }).from(cohorts);
  if (taken.some((one) => one.name.toLowerCase() === name.toLowerCase())) return undefined;
  const [row] = await db
    .insert(cohorts)
    .values({ name, startsOn: cohort.startsOn, capacity: cohort.capacity, createdBy: cohort.by })
    .onConflictDoNothing()
    .returning();
  if (!row) return undefined;
  await audit(db, { at: cohort.audit.at, memberId: cohort.audit.memberId, action: 'cohort added', detail: cohort.audit.via });
  return { id: row.id, name: row.name, startsOn: row.startsOn, capacity: row.capacity, accepted: 0 };
}
