// Shared by the serve tests: start `corral serve` on a free loopback
// port and stop it; count checks and print the closing line.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const root = resolve(here, "../..");
// third-party models of the conformance corpus, when ../shared is there
export const sharedModels = resolve(root, "../shared/conformance/models");
export const haveShared = existsSync(resolve(sharedModels, "ppc.cat"));
export const havePpc = haveShared || existsSync(resolve(root, "models/ppc.cat"));

export function startServer(bin, extra = []) {
  const args = ["serve", "--port", "0", ...extra];
  if (haveShared) args.push("-I", sharedModels);
  const proc = spawn(bin, args, { stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((ok, fail) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error("corral serve printed no URL in 10 s")), 10000);
    proc.stdout.on("data", (d) => {
      out += d;
      const m = /http:\/\/[^\s]+\//.exec(out);
      if (m) {
        clearTimeout(timer);
        ok({ proc, url: m[0] });
      }
    });
    proc.on("exit", (code) => { clearTimeout(timer); fail(new Error(`corral serve exited (${code})`)); });
  });
}

export async function stopServer(s) {
  if (s.proc.exitCode !== null) return s.proc.exitCode;
  return new Promise((ok) => {
    const t = setTimeout(() => { s.proc.kill("SIGKILL"); }, 10000);
    s.proc.removeAllListeners("exit");
    s.proc.on("exit", (code, sig) => { clearTimeout(t); ok(sig ? sig : code); });
    s.proc.kill("SIGTERM");
  });
}

export class Checks {
  constructor(name) { this.name = name; this.passed = 0; this.failed = 0; }
  ok(cond, what) {
    if (cond) this.passed++;
    else { this.failed++; console.log(`FAIL ${this.name}: ${what}`); }
    return cond;
  }
  end() {
    console.log(`${this.name}: ${this.passed} passed, ${this.failed} failed`);
    return this.failed === 0;
  }
}
