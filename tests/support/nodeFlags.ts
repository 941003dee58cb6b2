/**
 * The flags of every Node process that tests start and that opens PGlite (the Vitest workers of the node
 * project, servers and command lines): WebAssembly compiled by V8's baseline compiler (Liftoff) only.
 * PGlite is PostgreSQL compiled to a WebAssembly module of about 9 MB; by default V8 compiles it fast
 * first, then again, optimised, function by function as they run hot, on background threads. A process
 * of the tests runs a few hundred short queries at most: the second compilation costs more CPU than it
 * saves (a fresh PGlite with 300 queries: 3.6 s of CPU by default, 2.1 s with Liftoff only; 2,000 queries:
 * 4.3 s and 2.7 s). The code run is the same, compiled once; nothing of what the tests check depends on
 * it. tests/support/globalSetup.ts sets the same flag at run time in Vitest's own process.
 */
export const PGLITE_NODE_FLAGS: readonly string[] = ['--liftoff-only'];
