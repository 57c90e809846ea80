// Load test of `corral serve`: 200 requests from 8 concurrent clients on
// loopback, a mix of tests that run, tests with a syntax error, a pasted
// model and bad requests; every answer is checked against the one the
// command line gives (or the expected error), then the server must still
// answer and stop cleanly on SIGTERM.  Bounded: 200 requests, 120 s.
//
//   node tests/serve/load.mjs ./corral
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Checks, havePpc, root, sharedModels, haveShared, startServer, stopServer } from "./lib.mjs";

const bin = resolve(process.argv[2] || "./corral");
const REQUESTS = 200, CLIENTS = 8, LIMIT_MS = 120000;
const c = new Checks("serve-load");

const example = (name) => readFileSync(resolve(root, "examples", name), "utf8");
// the command line's Observation line for an example under a model
function cliObservation(name, model) {
  const args = ["-model", model];
  if (haveShared) args.push("-I", sharedModels);
  const out = execFileSync(bin, [...args, resolve(root, "examples", name)], { encoding: "utf8" });
  return /^Observation .*$/m.exec(out)[0];
}

const sb = example("SB.litmus");
const kinds = [
  { req: { litmus: sb, model: "x86tso.cat", show: "prop" },
    want: { ok: true, observation: cliObservation("SB.litmus", "x86tso.cat") } },
  { req: { litmus: sb, model: "sc.cat", show: "all", explain: true },
    want: { ok: true, observation: cliObservation("SB.litmus", "sc.cat") } },
  { req: { litmus: sb.replace("MOV EAX,[flag1]", "MOV EAX,[flag1"), model: "x86tso.cat" },
    want: { ok: false, errorAt: "litmus" } },
  { req: { litmus: sb, cat: '"pasted"\ninclude "cos.cat"\nacyclic po | rf | co | fr as sc\n' },
    want: { ok: true, observation: "Observation SB Never 0 3" } },
  { req: { litmus: sb, cat: '"pasted"\nacyclic po |\n' }, want: { ok: false, errorAt: "cat" } },
  { raw: '{"litmus": "X86 T', want: { http: 400 } },
  { req: { litmus: sb, model: "/etc/passwd" }, want: { http: 400 } },
];
if (havePpc)
  kinds.push({ req: { litmus: example("IRIW+lwsyncs.litmus"), model: "ppc.cat", explain: true },
               want: { ok: true, observation: cliObservation("IRIW+lwsyncs.litmus", "ppc.cat") } });

function check(k, status, body) {
  const w = k.want;
  if (w.http) return status === w.http && body.ok === false;
  if (status !== 200 || body.ok !== w.ok) return false;
  if (w.observation) {
    const m = /^Observation .*$/m.exec(body.output || "");
    return m && m[0] === w.observation && body.states.rows.length > 0;
  }
  return body.errors.length > 0 && body.errors[0].where === w.errorAt && body.errors[0].line > 0;
}

const server = await startServer(bin, ["--jobs", "2"]);
const started = Date.now();
let next = 0, good = 0, bad = 0;
const failures = [];
async function client() {
  while (next < REQUESTS && Date.now() - started < LIMIT_MS) {
    const i = next++;
    const k = kinds[i % kinds.length];
    try {
      const r = await fetch(server.url + "run", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: k.raw ?? JSON.stringify(k.req),
        signal: AbortSignal.timeout(30000),
      });
      const body = await r.json();
      if (check(k, r.status, body)) good++;
      else { bad++; failures.push(`request ${i} (kind ${i % kinds.length}): ${r.status} ${JSON.stringify(body).slice(0, 200)}`); }
    } catch (e) {
      bad++;
      failures.push(`request ${i}: ${e}`);
    }
  }
}
await Promise.all(Array.from({ length: CLIENTS }, client));
const secs = (Date.now() - started) / 1000;
for (const f of failures.slice(0, 5)) console.log(f);
c.ok(good + bad === REQUESTS, `all ${REQUESTS} requests sent in time (${good + bad})`);
c.ok(bad === 0, `every answer right (${good} right, ${bad} wrong)`);
console.log(`serve-load: ${good + bad} requests from ${CLIENTS} clients in ${secs.toFixed(1)} s`);
const info = await fetch(server.url + "api/info").then((r) => r.json()).catch(() => null);
c.ok(info && info.models.includes("x86tso.cat"), "the server still answers");
const st = await stopServer(server);
c.ok(st === 0, `clean stop on SIGTERM (${st})`);
process.exit(c.end() ? 0 : 1);
