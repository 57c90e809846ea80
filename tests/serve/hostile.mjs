// corral serve against a hostile client (issue 32): a pasted model may
// include only the library's files, and says nothing of other files; only
// JSON from the page's own origin is taken; a request trickled in too
// slowly is cut; answers are UTF-8 and input that is not is refused; a
// run that exhausts its memory or time ends only its own request.  Then a
// load of valid requests mixed with the cases above, every valid one
// answered, and the server alive at the end.
//
//   node tests/serve/hostile.mjs ./corral
import { connect } from "node:net";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Checks, root, startServer, stopServer } from "./lib.mjs";

const bin = resolve(process.argv[2] || "./corral");
const c = new Checks("serve-hostile");
const sb = readFileSync(resolve(root, "examples", "SB.litmus"), "utf8");
const utf8 = new TextDecoder("utf-8", { fatal: true });

// one thread of N stores to x: the search of coherence orders is long
const rows = (n, f) => "X86 long\n{ x=0; }\n P0 ;\n" +
  Array.from({ length: n }, (_, k) => ` MOV [x],$${f(k + 1)} ;`).join("\n") + "\nexists (x=1)\n";

const server = await startServer(bin, ["--jobs", "2", "--max-seconds", "2", "--max-memory", "134217728"]);
const url = server.url + "run";

// POST /run; the body as bytes, checked to be UTF-8 before it is parsed
async function post(body, headers = {}) {
  const r = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...headers },
    body: typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(30000),
  });
  const bytes = new Uint8Array(await r.arrayBuffer());
  let text = null, json = null;
  try { text = utf8.decode(bytes); } catch { /* not UTF-8 */ }
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: r.status, text, json };
}

// 9: the media type and the origin
{
  const plain = await post({ litmus: sb }, { "Content-Type": "text/plain" });
  c.ok(plain.status === 415, `a text/plain body is refused (${plain.status})`);
  const form = await post("litmus=x", { "Content-Type": "application/x-www-form-urlencoded" });
  c.ok(form.status === 415, `a form is refused (${form.status})`);
  const nul = await post({ litmus: sb }, { Origin: "null" });
  c.ok(nul.status === 403, `Origin: null is refused (${nul.status})`);
  const other = await post({ litmus: sb }, { Origin: "http://127.0.0.1:1" });
  c.ok(other.status === 403, `another origin is refused (${other.status})`);
  const same = await post({ litmus: sb }, { Origin: server.url.replace(/\/$/, "") });
  c.ok(same.status === 200 && same.json?.ok, `the page's own origin is served (${same.status})`);
}

// 8: includes of a pasted model; the same words for a file that exists
// and one that does not
const include = async (name) => {
  const r = await post({ litmus: sb, cat: `"pasted"\ninclude "${name}"\nacyclic po\n` });
  return r.json?.errors?.[0]?.message ?? `(${r.status}) ${r.text}`;
};
for (const [name, twin] of [["/etc/passwd", "/etc/nothere"], ["../../../../etc/hostname", "../../../../etc/nothere"],
                            ["/proc/self/cmdline", "/proc/self/nothere"], ["/proc/self/pagemap", "/nothere/pagemap"]]) {
  const a = await include(name), b = await include(twin);
  c.ok(a === `cannot find file ${name}`, `include "${name}" is not read: ${a}`);
  c.ok(a.replace(name, "F") === b.replace(twin, "F"), `include "${name}" says what a missing file says`);
}
{
  const lib = await post({ litmus: sb, cat: '"pasted"\ninclude "cos.cat"\nacyclic po | rf | co | fr\n' });
  c.ok(lib.json?.ok && /Observation SB Never/.test(lib.json.output), "a library file is included");
}

// 11: UTF-8 out and in
{
  const bad = new Uint8Array([...new TextEncoder().encode('{"litmus":"X86 T'), 0xe9, 0xff, ...new TextEncoder().encode('"}')]);
  const r = await post(bad);
  c.ok(r.status === 400 && r.text !== null && /not UTF-8/.test(r.json?.errors?.[0]?.message ?? ""),
       `a body that is not UTF-8 is refused (${r.status} ${r.text})`);
  const long = await post({ litmus: "X86 T\n{ x=0; }\n P0 ;\n FOO " + "é".repeat(200) + " ;\nexists (x=1)\n" });
  c.ok(long.text !== null && long.json && long.json.ok === false, "an excerpt cut inside a character is UTF-8");
}

// 10: a request trickled in is cut after the receive bound (10 s)
{
  const port = Number(new URL(server.url).port);
  const t0 = Date.now();
  const closed = await new Promise((ok) => {
    const s = connect(port, "127.0.0.1", () => s.write("POST /run HTTP/1.1\r\n"));
    const drip = setInterval(() => s.write("X"), 2000);
    s.on("data", () => {});
    s.on("error", () => {});
    s.on("close", () => { clearInterval(drip); ok(Date.now() - t0); });
    setTimeout(() => { clearInterval(drip); s.destroy(); ok(-1); }, 25000);
  });
  c.ok(closed > 0 && closed < 20000, `a trickling request is cut (after ${closed} ms)`);
}

// 12 and 6: a run past its memory, a run past its time: that request only
{
  const mem = await post({ litmus: rows(15000, (k) => k % 7) });
  c.ok(mem.json && mem.json.ok === false && ["crashed", "test-error"].includes(mem.json.status),
       `a run out of memory ends its request (${mem.status} ${mem.text?.slice(0, 160)})`);
  const t0 = Date.now();
  const slow = await post({ litmus: rows(2000, (k) => k) });
  const ms = Date.now() - t0;
  c.ok(slow.json && slow.json.ok === false && slow.json.status === "stopped" && ms < 15000,
       `a long run is stopped (${ms} ms, ${slow.text?.slice(0, 160)})`);
}

// the load: valid requests mixed with the cases above
{
  const kinds = [
    { req: { litmus: sb, model: "x86tso.cat" }, valid: true },
    { req: { litmus: sb, cat: '"m"\nprocedure p(x) = call p(x) end\ncall p(po)\n' } },       // case 1
    { req: { litmus: sb, cat: '"m"\ninclude "/proc/self/pagemap"\n' } },                      // case 3
    { req: { litmus: sb, model: "sc.cat", show: "all" }, valid: true },
    { req: { litmus: sb, cat: '"m"\ninclude "/etc/shadow"\n' } },                             // case 8
    { req: { litmus: sb, model: "x86tso.cat", explain: true }, valid: true },
  ];
  const N = 60, CLIENTS = 6;
  let next = 0, answered = 0, valid = 0;
  const fails = [];
  const client = async () => {
    while (next < N) {
      const i = next++;
      // a long run (case 6) every 15 requests
      const k = i % 15 === 7 ? { req: { litmus: rows(1000, (n) => n) } } : kinds[i % kinds.length];
      try {
        const r = await post(k.req);
        if (!k.valid) continue;
        valid++;
        if (r.status === 200 && r.json?.ok && /Observation SB/.test(r.json.output)) answered++;
        else fails.push(`${i}: ${r.status} ${r.text?.slice(0, 120)}`);
      } catch (e) { if (k.valid) { valid++; fails.push(`${i}: ${e}`); } }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  for (const f of fails.slice(0, 3)) console.log(f);
  c.ok(valid > 0 && answered === valid, `every valid request answered under hostile load (${answered}/${valid})`);
}

const info = await fetch(server.url + "api/info").then((r) => r.json()).catch(() => null);
c.ok(info && info.models.includes("x86tso.cat"), "the server still answers");
const st = await stopServer(server);
c.ok(st === 0, `clean stop on SIGTERM (${st})`);
process.exit(c.end() ? 0 : 1);
