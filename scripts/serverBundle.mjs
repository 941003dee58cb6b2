// The server and the team's command line as plain Node programs: server/main.ts and server/cli/main.ts
// bundled by esbuild into ES modules with source maps, run with `node --enable-source-maps`, no
// TypeScript loader at run time. One definition for `npm run build` (scripts/build.mjs), for the
// processes the tests start (tests/support/globalSetup.ts), and for `npm run serve` and `npm run
// requests`, which bundle first when the bundle is missing or older than its sources:
//   node scripts/serverBundle.mjs --if-stale [--outDir build/server]
// Plain JavaScript, so that plain `node` runs it without a loader.
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The programs bundled, by name: `<name>.mjs` in the bundle's directory. */
const SERVER_ENTRIES = { server: 'server/main.ts', cli: 'server/cli/main.ts' };

/**
 * Where `npm run build` writes the bundles: outside `dist/`, the folder the server publishes as static
 * files, so that nothing of the server's code or source maps is ever served. Inside the project, so that
 * the bundles resolve their packages from its node_modules.
 */
export const SERVER_BUILD_DIR = 'build/server';

/**
 * The SQL the migrator reads at run time (server/db/database.ts: `new URL('./migrations', import.meta.url)`),
 * copied beside the bundles, where the same URL leads once bundled, whatever the working directory.
 */
const SQL_FOLDERS = { 'server/db/migrations': 'migrations', 'server/db/functions': 'functions' };

/** The list of the bundles' source files, beside them, for {@link isStale}. */
const INPUTS_FILE = 'inputs.json';

/**
 * Bundles {@link SERVER_ENTRIES} into `outDir` as `server.mjs` and `cli.mjs` (ES modules for Node 20, each
 * with its `.map`), and copies the migrator's SQL beside them. Packages stay in node_modules (`packages:
 * 'external'`): PGlite loads its WebAssembly and data files from its own package, and no package's own
 * `require` or file lookup is moved. Started with plain node, a bundle starts in about 0.35 s of CPU
 * instead of 1.2 s under tsx's loader, which compiles every file at every start.
 * @param {string} outDir - a directory inside the project (for node_modules), never inside the site's `dist/`
 * @returns {Promise<{ server: string, cli: string }>} the bundles' absolute paths
 * @throws esbuild's error when an entry does not compile
 */
export async function bundleServer(outDir) {
  const { build } = await import('esbuild'); // a dev dependency: only the build needs it
  const out = resolve(outDir);
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const result = await build({
    entryPoints: SERVER_ENTRIES,
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    metafile: true,
    logLevel: 'warning',
  });
  for (const [from, to] of Object.entries(SQL_FOLDERS)) await cp(from, join(out, to), { recursive: true });
  const inputs = [...Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('node_modules/')), ...Object.keys(SQL_FOLDERS)];
  await writeFile(join(out, INPUTS_FILE), `${JSON.stringify(inputs.map((input) => relative(process.cwd(), resolve(input))), null, 1)}\n`);
  return { server: join(out, 'server.mjs'), cli: join(out, 'cli.mjs') };
}

/**
 * Whether the bundles in `outDir` are missing, or older than one of the files they were made from (the
 * sources esbuild read, and the SQL folders' files).
 * @param {string} outDir - as given to {@link bundleServer}
 */
async function isStale(outDir) {
  let inputs;
  let built;
  try {
    inputs = JSON.parse(await readFile(join(outDir, INPUTS_FILE), 'utf8'));
    built = Math.min(...(await Promise.all(Object.keys(SERVER_ENTRIES).map(async (name) => (await stat(join(outDir, `${name}.mjs`))).mtimeMs))));
  } catch {
    return true;
  }
  const newest = async (path) => {
    const info = await stat(path).catch(() => undefined);
    if (!info) return Infinity; // a source gone since: bundle again
    if (!info.isDirectory()) return info.mtimeMs;
    const names = await readdir(path, { recursive: true });
    const times = await Promise.all(names.map(async (name) => (await stat(join(path, name))).mtimeMs));
    return Math.max(info.mtimeMs, ...times);
  };
  return (await Promise.all(inputs.map(newest))).some((mtime) => mtime > built);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const at = process.argv.indexOf('--outDir');
  const outDir = at > 0 ? process.argv[at + 1] : SERVER_BUILD_DIR;
  if (!process.argv.includes('--if-stale') || (await isStale(outDir))) {
    try {
      await bundleServer(outDir);
    } catch (error) {
      // a production install (npm ci --omit=dev) has no esbuild: the bundles come from `npm run build`
      const missing = error?.code === 'ERR_MODULE_NOT_FOUND';
      console.error(missing ? `the server is not built in ${outDir}, and esbuild is not installed here: run npm run build where it is` : error.message);
      process.exit(1);
    }
    console.error(`bundled the server and the command line into ${outDir}`);
  }
}
