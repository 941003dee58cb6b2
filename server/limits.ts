/**
 * Every limit the server enforces, with its unit (DESIGN.md §2: "every limit a named constant").
 * Each has a test at its boundary in tests/server/.
 */
// One module per part of the server (server/limits/), re-exported here: import them from this file.
export * from './limits/requests.ts';
export * from './limits/outbox.ts';
export * from './limits/team.ts';
