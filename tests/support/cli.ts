import type { Database } from '../../server/db/database.ts';
import { runRequests } from '../../server/requests.ts';

/**
 * The team's command line (`npm run requests`, server/requests.ts) on `database()`, in-process:
 * `run(argv, now)` resolves with the exit code; what it printed is in `io.out` / `io.err`, emptied at
 * each run. `user` is who it runs as (`--by`'s default); `mailDir` the server's `.eml` directory.
 */
export function teamCli(database: () => Database, options: { user?: string; mailDir?: string } = {}) {
  const io = { out: [] as string[], err: [] as string[] };
  const run = (argv: string[], now = new Date()) => {
    io.out.length = 0;
    io.err.length = 0;
    return runRequests(argv, {
      connect: async () => ({ db: database().db, via: 'directory', close: async () => {} }),
      out: (text) => void io.out.push(text),
      err: (text) => void io.err.push(text),
      now: () => now,
      user: options.user ?? 'kim',
      ...(options.mailDir ? { mailDir: options.mailDir } : {}),
    });
  };
  return { io, run };
}
