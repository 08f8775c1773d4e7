#!/usr/bin/env node
// `npm run build` runs @napi-rs/cli with this file as its CARGO. The CLI always passes
// `--target <triple>`, and an explicit target makes cargo build every dependency a second time
// into target/<triple>/ (its artifacts differ from a plain build's), so after the workspace's
// `cargo test` the addon would recompile codemode and both guests. When the triple is the
// host's, this drops it, runs cargo, and copies the built addon to where the CLI looks for it
// (target/<triple>/<profile>/), so the build reuses target/debug/.
"use strict";
const { spawnSync, execFileSync } = require("node:child_process");
const { copyFileSync, existsSync, mkdirSync } = require("node:fs");
const { join, resolve } = require("node:path");

const cargo = process.env.CODEMODE_REAL_CARGO || "cargo";
const args = process.argv.slice(2);
const host = /^host: (.+)$/m.exec(execFileSync("rustc", ["-vV"], { encoding: "utf8" }))?.[1];
const at = args.indexOf("--target");
let triple = null;
if (at >= 0 && args[at + 1] === host) {
  triple = args[at + 1];
  args.splice(at, 2);
}
// The package's script names ../../target; a CARGO_TARGET_DIR the user set wins (cargo's own
// order: the flag would override it), and the addon is copied back to where the CLI looks.
const expectedDir = (() => {
  const i = args.indexOf("--target-dir");
  return i >= 0 ? args[i + 1] : undefined;
})();
if (process.env.CARGO_TARGET_DIR && expectedDir !== undefined) {
  args[args.indexOf("--target-dir") + 1] = process.env.CARGO_TARGET_DIR;
}
const r = spawnSync(cargo, args, { stdio: "inherit" });
if (r.error) {
  console.error(`cargo-host: cannot run ${cargo}: ${r.error.message}`);
  process.exit(1);
}
if (r.status !== 0 || triple === null) process.exit(r.status ?? 1);

const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const targetDir = resolve(flag("--target-dir") ?? process.env.CARGO_TARGET_DIR ?? "target");
const profile = args.includes("--release") ? "release" : (flag("--profile") ?? "dev");
const dir = profile === "dev" ? "debug" : profile;
const to = join(resolve(expectedDir ?? targetDir), triple, dir);
mkdirSync(to, { recursive: true });
for (const name of ["libcodemode_node.so", "libcodemode_node.dylib", "codemode_node.dll"]) {
  const from = join(targetDir, dir, name);
  if (existsSync(from)) copyFileSync(from, join(to, name));
}
