package main

// shim is the discgen package's bin: it finds the binary of the platform
// package npm installed for this machine and runs it with the same
// arguments, standard streams and exit status.
const shim = `#!/usr/bin/env node
"use strict";
const { spawnSync } = require("child_process");
const path = require("path");

const platform = process.platform + "-" + process.arch;
const exe = process.platform === "win32" ? "discgen.exe" : "discgen";
let bin;
try {
  bin = path.join(path.dirname(require.resolve("@discgen/" + platform + "/package.json")), "bin", exe);
} catch (e) {
  console.error("discgen: no binary for " + platform + ": the optional dependency @discgen/" + platform +
    " is not installed (was npm run with --omit=optional or --no-optional?), or discgen has no release for this platform");
  process.exit(1);
}
const r = spawnSync(bin, process.argv.slice(2), { stdio: "inherit" });
if (r.error) {
  console.error("discgen: " + r.error.message);
  process.exit(1);
}
if (r.signal) {
  process.kill(process.pid, r.signal);
}
process.exit(r.status);
`
