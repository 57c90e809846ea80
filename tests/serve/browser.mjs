// The page of `corral serve` in headless Chromium (playwright-core):
// load an example, run it, check the verdict, the state table, the SVG
// graph and the explanation; then a syntax error shown at its line.
// Screenshots go to SHOTS (default build/serve-shots).
//
//   node tests/serve/browser.mjs ./corral
import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import { chromium } from "playwright-core";
import { Checks, havePpc, root, startServer, stopServer } from "./lib.mjs";

const bin = resolve(process.argv[2] || "./corral");
const shots = process.env.SHOTS || resolve(root, "build/serve-shots");
mkdirSync(shots, { recursive: true });
const c = new Checks("serve-browser");

const server = await startServer(bin);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--no-first-run"],
});
let exitCode = 1;
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const pageErrors = [];
  page.on("pageerror", (e) => pageErrors.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") pageErrors.push(m.text()); });
  await page.goto(server.url);
  await page.waitForSelector("#example option[value$='.litmus']", { state: "attached" });

  // IRIW+lwsyncs under ppc.cat (the corpus' models, or ours once there);
  // without ppc.cat, SB under x86tso.cat.
  const [example, model, states] = havePpc
    ? ["/examples/IRIW+lwsyncs.litmus", "ppc.cat", 16]
    : ["/examples/SB.litmus", "x86tso.cat", 4];
  await page.selectOption("#example", example);
  await page.waitForFunction((ex) => document.getElementById("litmus").value.includes(ex),
                             example.replace(/^.*\//, "").replace(".litmus", ""));
  await page.selectOption("#model", model);
  await page.click("#run");
  await page.waitForSelector("#result:not([hidden]) .verdict .obs");
  c.ok((await page.textContent("#verdict .obs")) === "Sometimes", `${example}: Sometimes`);
  const rows = await page.$$eval("#states tr", (r) => r.length - 1);
  c.ok(rows === states, `${example}: ${states} state rows (saw ${rows})`);
  const cols = await page.$$eval("#states th", (h) => h.map((x) => x.textContent));
  c.ok(cols.length > 0 && cols[0].includes(":"), `state columns ${cols}`);
  c.ok(await page.$("#graph svg") !== null, "an SVG execution graph");
  const edgeLabels = await page.$$eval("#graph svg g.edge text", (t) => t.map((x) => x.textContent.trim()));
  c.ok(edgeLabels.includes("fr"), `an fr edge in the graph (labels: ${[...new Set(edgeLabels)]})`);
  c.ok(edgeLabels.includes("rf"), "an rf edge in the graph");
  const cycle = await page.textContent("#cycle");
  c.ok(/fr/.test(cycle) && /reached/.test(cycle), `explanation: the SC cycle (${cycle.slice(0, 80)})`);
  // every edge of the SC cycle, and only those, highlighted on the graph
  const hl = await page.$$eval("#graph svg g.edge.hl text", (e) => e.map((x) => x.textContent.trim()));
  const steps = (cycle.match(/—/g) || []).length;
  c.ok(steps >= 4 && hl.length === steps, `${steps} cycle edges highlighted on the graph (${hl})`);
  c.ok(hl.filter((l) => l === "fr").length === (cycle.match(/—fr→/g) || []).length, "the highlighted fr edges");
  c.ok(await page.$("#xgraph svg") !== null, "the explanation's graph");
  const hit = await page.$$eval("#states tr.hit", (r) => r.length);
  c.ok(hit === 1, "the explained state marked in the table");
  await page.screenshot({ path: resolve(shots, "result.png"), fullPage: true });

  // a Never test: the failing check's cycle
  if (havePpc) {
    await page.selectOption("#example", "/examples/MP+lwsync+addr.litmus");
    await page.waitForFunction(() => document.getElementById("litmus").value.includes("MP+lwsync+addr"));
    await page.selectOption("#model", "ppc.cat");
    await page.click("#run");
    await page.waitForFunction(() => document.querySelector("#verdict .obs")?.textContent === "Never"
                               || document.querySelector("#errors li"));
    c.ok((await page.textContent("#verdict .obs")) === "Never", "MP+lwsync+addr: Never");
    const why = await page.textContent("#cycle");
    c.ok(/never reached/.test(why) && /—\S+→/.test(why), `the failing check's cycle (${why.slice(0, 100)})`);
    const red = await page.$$eval("#xgraph svg g.edge path[stroke='red']", (e) => e.length);
    c.ok(red >= 2, `the cycle in red on the explanation graph (${red})`);
    await page.screenshot({ path: resolve(shots, "never.png"), fullPage: true });
  }

  // a syntax error at a known line
  await page.selectOption("#example", "/examples/SB.litmus");
  await page.waitForFunction(() => document.getElementById("litmus").value.includes("X86 SB"));
  const text = await page.inputValue("#litmus");
  const lines = text.split("\n");
  const bad = lines.findIndex((l) => l.includes("MOV EAX,[flag1]"));
  lines[bad] = lines[bad].replace("MOV EAX,[flag1]", "MOV EAX,[flag1 ");
  await page.fill("#litmus", lines.join("\n"));
  await page.click("#run");
  await page.waitForSelector("#errors li");
  const err = await page.textContent("#errors li");
  c.ok(err.includes(`test:${bad + 1}:`), `error names line ${bad + 1} (${err})`);
  const mark = await page.textContent("#litmus-editor .gutter .bad");
  c.ok(mark === String(bad + 1), `gutter marks line ${bad + 1} (${mark})`);
  c.ok(await page.isVisible("#litmus-editor .mark"), "the error line is highlighted");
  c.ok(await page.isHidden("#result"), "no stale result beside an error");
  await page.screenshot({ path: resolve(shots, "error.png"), fullPage: true });

  // a pasted model with an error at its line
  await page.selectOption("#example", "/examples/SB.litmus");
  await page.waitForFunction(() => document.getElementById("litmus").value.includes("X86 SB"));
  await page.click("#catbox summary");
  await page.fill("#cat", '"mine"\ninclude "cos.cat"\nlet com = rf | co | fr\nacyclic ( as x\n');
  await page.click("#run");
  await page.waitForSelector("#errors li");
  const cerr = await page.textContent("#errors li");
  c.ok(cerr.startsWith("model:4:"), `model error at line 4 (${cerr})`);
  c.ok((await page.textContent("#cat-editor .gutter .bad")) === "4", "model gutter marks line 4");
  await page.fill("#cat", '"mine"\ninclude "cos.cat"\nlet com = rf | co | fr\nacyclic po | com as sc\n');
  await page.click("#run");
  await page.waitForSelector("#result:not([hidden]) .verdict .obs");
  c.ok((await page.textContent("#verdict .obs")) === "Never", "SB under a pasted SC model: Never");

  c.ok(pageErrors.length === 0, `no errors in the page (${pageErrors.join("; ")})`);
  exitCode = c.end() ? 0 : 1;
} catch (e) {
  console.log(`FAIL serve-browser: ${e.stack || e}`);
  c.failed++;
  c.end();
} finally {
  await browser.close();
  const st = await stopServer(server);
  if (st !== 0) {
    console.log(`FAIL serve-browser: corral serve ended with ${st}`);
    exitCode = 1;
  }
}
process.exit(exitCode);
