// The database's tables, one module per part of the system (server/db/schema/). The migrations in
// server/db/migrations/ are generated from them (`npm run db:generate`); the SQL functions are not: each is
// one file of server/db/functions/.
export * from './schema/requests.ts';
export * from './schema/outbox.ts';
export * from './schema/privacy.ts';
export * from './schema/team.ts';
