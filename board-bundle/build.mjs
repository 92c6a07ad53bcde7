// Builds kradan's board bundle: chessgroundx, pinned in package.json, bundled once with esbuild
// into one minified IIFE (global `KradanBoard`) with a source map that carries the sources, plus
// chessgroundx's base CSS. patches.mjs changes a few lines of chessgroundx as they are loaded
// (to keep the board inside the page's Content-Security-Policy). It also copies the few files of
// swagger-ui-dist (pinned) that /docs needs into static/docs/, so that the API's page works offline.
// The outputs are committed under src/kradan/web/static/, so nobody
// needs Node to install or run kradan; CI rebuilds them and fails on any difference.
//
//   cd board-bundle && npm ci && node build.mjs
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { PATCHES, patched } from './patches.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const staticDir = join(here, '..', 'src', 'kradan', 'web', 'static');
const cgDir = join(here, 'node_modules', 'chessgroundx');
const cgVersion = JSON.parse(readFileSync(join(cgDir, 'package.json'), 'utf8')).version;
if (cgVersion !== '10.7.4') throw new Error(`expected chessgroundx 10.7.4, found ${cgVersion}: run npm ci`);

const banner =
  `/*! kradan board bundle: chessgroundx ${cgVersion} (https://github.com/gbtami/chessgroundx), ` +
  'GPL-3.0; bundled by kradan (GPL-3.0-or-later). Sources: board.min.js.map and board-bundle/ in kradan. */';

// chessgroundx's files that patches.mjs changes, loaded patched (their source maps still lead to
// chessgroundx's TypeScript; the patched lines are in board.min.js itself)
const patchPlugin = {
  name: 'kradan-patches',
  setup(b) {
    b.onLoad({ filter: /[\\/]chessgroundx[\\/][a-z]+\.js$/ }, args => {
      const name = args.path.split(/[\\/]/).pop();
      if (!PATCHES[name]) return undefined;
      const contents = patched(name, readFileSync(args.path, 'utf8'));
      return { contents, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

await build({
  entryPoints: [join(here, 'src', 'index.js')],
  outfile: join(staticDir, 'board.min.js'),
  bundle: true,
  format: 'iife',
  globalName: 'KradanBoard',
  minify: true,
  sourcemap: true,
  sourcesContent: true,
  target: 'es2019',
  banner: { js: banner },
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [patchPlugin],
});

copyFileSync(join(cgDir, 'assets', 'chessground.base.css'), join(staticDir, 'chessground.base.css'));
console.log(`built board.min.js and chessground.base.css (chessgroundx ${cgVersion})`);

// Swagger UI for /docs (kradan.web.server serves its page): the bundle, its style sheet and
// icon, copied byte for byte with the licences (Apache-2.0; the bundle's third-party notices).
// The folder holds exactly these files: anything else in it is removed.
const swaggerDir = join(here, 'node_modules', 'swagger-ui-dist');
const swaggerVersion = JSON.parse(readFileSync(join(swaggerDir, 'package.json'), 'utf8')).version;
if (swaggerVersion !== '5.35.0') throw new Error(`expected swagger-ui-dist 5.35.0, found ${swaggerVersion}: run npm ci`);
const docsDir = join(staticDir, 'docs');
const docsFiles = [
  'swagger-ui-bundle.js',
  'swagger-ui-bundle.js.LICENSE.txt',
  'swagger-ui.css',
  'favicon-32x32.png',
  'LICENSE',
  'NOTICE',
];
mkdirSync(docsDir, { recursive: true });
for (const name of readdirSync(docsDir)) {
  if (!docsFiles.includes(name)) rmSync(join(docsDir, name), { recursive: true });
}
for (const name of docsFiles) copyFileSync(join(swaggerDir, name), join(docsDir, name));
console.log(`copied Swagger UI to static/docs/ (swagger-ui-dist ${swaggerVersion})`);
