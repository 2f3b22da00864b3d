// Builds the page into ../static (shipped inside the Python package): one script, one
// stylesheet and the HTML. The output depends on the sources and the pinned packages only,
// so a test can rebuild it and compare it byte for byte.
import { build } from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
// STATIC_OUT: where to build (the test builds into a temporary directory).
const out = resolve(process.env.STATIC_OUT ?? join(here, "..", "static"));

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, "assets"), { recursive: true });
await build({
  entryPoints: [join(here, "src", "main.ts")],
  bundle: true,
  minify: true,
  format: "iife",
  target: ["es2020"],
  legalComments: "eof",
  outfile: join(out, "assets", "app.js"),
  logLevel: "warning",
});
await build({
  entryPoints: [join(here, "src", "style.css")],
  bundle: true,
  minify: true,
  outfile: join(out, "assets", "app.css"),
  logLevel: "warning",
});
copyFileSync(join(here, "index.html"), join(out, "index.html"));
