import type { Db } from '../db/database.ts';
import { lockRequest } from '../db/submissions.ts';
import { ExitError, UUID } from './arguments.ts';
import type { Row } from './summary.ts';

/** The request to change, locked until the command commits; exit 1 when there is none. */
export async function findOne(db: Db, id: string): Promise<Row> {
  const row = UUID.test(id) ? await lockRequest(db, id) : undefined;
  if (!row) throw new ExitError(`no request ${id}`, 1);
  return row;
}
