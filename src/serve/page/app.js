// corral playground: the page's logic.  It talks to the server of
// `corral serve` only (GET /api/info, GET /examples/..., POST /run).
"use strict";

const $ = (id) => document.getElementById(id);

// herd7's default model per architecture (the first word of a test)
const DEFAULT_MODEL = {
  X86: "x86tso.cat", X86_64: "x86tso-mixed.cat", PPC: "ppc.cat", AArch64: "aarch64.cat",
  ARM: "arm.cat", RISCV: "riscv.cat", MIPS: "mips.cat", C: "c11_partialSC.cat",
  BPF: "bpf.cat",
  // herd7 has none for LISA; corral's own pair (lisa.bell, lisa.cat) is
  // what the server runs with no model
  LISA: "default",
};

let info = { models: [], examples: [] };
let graphs = [];
let graphIndex = 0;
let lastExplain = null;

// ------------------------------------------------------------ editors

function setupEditor(box) {
  const ta = box.querySelector("textarea");
  const gutter = box.querySelector(".gutter");
  const mark = box.querySelector(".mark");
  const ed = { box, ta, gutter, mark, bad: 0 };
  const lineHeight = () => parseFloat(getComputedStyle(ta).lineHeight) || 18;
  ed.refresh = () => {
    const n = ta.value.split("\n").length;
    let s = "";
    for (let i = 1; i <= n; i++)
      s += i === ed.bad ? `<span class="bad">${i}</span>\n` : `${i}\n`;
    gutter.innerHTML = s;
    gutter.scrollTop = ta.scrollTop;
    if (ed.bad > 0) {
      const top = 8 + (ed.bad - 1) * lineHeight() - ta.scrollTop;
      mark.style.top = `${top}px`;
      mark.hidden = top < -lineHeight() || top > box.clientHeight;
    } else {
      mark.hidden = true;
    }
  };
  ed.setBad = (line) => { ed.bad = line; ed.refresh(); };
  // put the caret at line:col and scroll it into view
  ed.goTo = (line, col) => {
    const lines = ta.value.split("\n");
    let pos = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i++) pos += lines[i].length + 1;
    pos += Math.max(0, (col || 1) - 1);
    ta.focus();
    ta.setSelectionRange(pos, pos);
    ta.scrollTop = Math.max(0, (line - 4) * lineHeight());
    ed.refresh();
  };
  ta.addEventListener("input", () => { ed.bad = 0; ed.refresh(); });
  ta.addEventListener("scroll", ed.refresh);
  ta.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); run(); }
  });
  ed.refresh();
  return ed;
}

const litmusEd = setupEditor($("litmus-editor"));
const catEd = setupEditor($("cat-editor"));

// --------------------------------------------------------------- setup

function option(sel, value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  sel.appendChild(o);
}

async function init() {
  const r = await fetch("/api/info");
  info = await r.json();
  $("version").textContent = `corral ${info.version} · herd7 ${info.herd} compatible` +
    (info.graphviz ? "" : " · graphviz not installed: graphs as dot text");
  option($("model"), "default", "default for the test's architecture");
  for (const m of info.models) option($("model"), m, m);
  for (const ex of info.examples) {
    const name = ex.path.replace(/^\/examples\//, "").replace(/\.litmus$/, "");
    option($("example"), ex.path, `${ex.arch}: ${name}`);
  }
  $("example").addEventListener("change", () => loadExample($("example").value));
  $("run").addEventListener("click", run);
  $("catbox").addEventListener("toggle", () => { $("model").disabled = $("catbox").open; });
  if (info.examples.length) {
    $("example").value = info.examples[0].path;
    await loadExample(info.examples[0].path);
  }
}

async function loadExample(path) {
  if (!path) return;
  const r = await fetch(path);
  const text = await r.text();
  litmusEd.ta.value = text;
  litmusEd.setBad(0);
  const arch = text.split(/\s/)[0];
  const m = DEFAULT_MODEL[arch];
  // without the architecture's model here, sequential consistency
  $("model").value = m === "default" ? m : m && info.models.includes(m) ? m
    : info.models.includes("sc.cat") ? "sc.cat" : "default";
}

// ----------------------------------------------------------------- run

async function run() {
  const btn = $("run");
  btn.disabled = true;
  btn.textContent = "Running…";
  const pasted = $("catbox").open && catEd.ta.value.trim() !== "";
  const req = {
    litmus: litmusEd.ta.value,
    model: $("model").value,
    show: $("show").value,
    explain: $("explain").checked,
  };
  if (pasted) req.cat = catEd.ta.value;
  try {
    const r = await fetch("/run", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(req),
    });
    show(await r.json());
  } catch (e) {
    show({ ok: false, status: "network", errors: [{ where: "request", line: 0, message: String(e) }] });
  } finally {
    btn.disabled = false;
    btn.textContent = "Run";
  }
}

// -------------------------------------------------------------- result

function showErrors(list, cls) {
  for (const e of list || []) {
    const li = document.createElement("li");
    li.className = cls;
    const where = e.where === "litmus" ? "test" : e.where === "cat" ? "model" : e.file || e.where;
    const pos = e.line ? `${where}:${e.line}${e.col ? ":" + e.col : ""}` : where;
    li.innerHTML = `<b></b> `;
    li.querySelector("b").textContent = `${pos}:`;
    li.appendChild(document.createTextNode(`${e.severity || "error"}: ${e.message}`));
    const ed = e.where === "litmus" ? litmusEd : e.where === "cat" ? catEd : null;
    if (ed && e.line) {
      if (cls === "error") ed.setBad(e.line);
      li.addEventListener("click", () => ed.goTo(e.line, e.col));
      if (cls === "error" && !$("errors").children.length) setTimeout(() => ed.goTo(e.line, e.col), 0);
    }
    $("errors").appendChild(li);
  }
}

function show(d) {
  $("errors").innerHTML = "";
  litmusEd.setBad(0);
  catEd.setBad(0);
  showErrors(d.errors, "error");
  showErrors(d.warnings, "warning");
  if (!d.ok) {
    $("result").hidden = true;
    $("placeholder").hidden = false;
    $("placeholder").textContent = d.status === "stopped"
      ? "The run was stopped by the server's bounds (time or candidates)."
      : "No result: see the error on the left.";
    return;
  }
  $("placeholder").hidden = true;
  $("result").hidden = false;
  lastExplain = d.explain || null;

  const v = $("verdict");
  v.className = `verdict ${d.observation || ""}`;
  v.innerHTML = "";
  const obs = document.createElement("span");
  obs.className = "obs";
  obs.textContent = d.observation || "?";
  const cond = document.createElement("span");
  cond.className = "cond";
  cond.textContent = `${d.test} · ${d.condition || ""}`;
  const counts = document.createElement("span");
  counts.className = "counts";
  counts.textContent = `${d.positive ?? 0} reaching, ${d.negative ?? 0} not · ${d.wall.toFixed(3)} s`;
  v.append(obs, cond, counts);

  // states: the columns are the displayed locations
  const t = $("states");
  t.innerHTML = "";
  const head = t.insertRow();
  for (const c of d.states.columns) {
    const th = document.createElement("th");
    th.textContent = c;
    head.appendChild(th);
  }
  const witness = lastExplain && lastExplain.witness ? lastExplain.witness.state : null;
  for (const row of d.states.rows) {
    const tr = t.insertRow();
    row.forEach((val) => { tr.insertCell().textContent = val; });
    const text = d.states.columns.map((c, i) => `${c}=${row[i]};`).join(" ");
    if (witness && text === witness.trim()) { tr.className = "hit"; tr.title = "the explained execution"; }
  }
  const hit = t.querySelector("tr.hit");
  if (hit) t.parentElement.scrollTop = hit.offsetTop - 40;

  graphs = d.graphs || [];
  graphIndex = 0;
  $("graphbox").hidden = false;
  drawGraph(d);

  const xb = $("explainbox");
  xb.hidden = !d.explain;
  if (d.explain) drawExplain(d);
  $("output").textContent = d.output || "";
}

// an SVG answer into el, without running anything it might contain
function putSvg(el, svgText) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg") { el.textContent = "(graph could not be read)"; return null; }
  for (const s of svg.querySelectorAll("script, foreignObject")) s.remove();
  el.innerHTML = "";
  el.appendChild(document.importNode(svg, true));
  return el.querySelector("svg");
}

function putGraph(el, g) {
  if (g.svg) return putSvg(el, g.svg);
  const pre = document.createElement("pre");
  pre.textContent = g.dot;
  el.innerHTML = "";
  el.appendChild(pre);
  return null;
}

function drawGraph(d) {
  const el = $("graph");
  const nav = $("graphnav");
  nav.innerHTML = "";
  if (!graphs.length) {
    el.innerHTML = "";
    const p = document.createElement("p");
    p.className = "note";
    p.textContent = $("show").value === "none" ? "(show: none)"
      : `No execution to draw for show=${$("show").value}` +
        (d.observation === "Never" ? ": the condition is never reached (see the explanation)." : ".");
    el.appendChild(p);
    return;
  }
  const total = d.ngraphs || graphs.length;
  const label = document.createElement("span");
  label.textContent = `${graphIndex + 1} of ${graphs.length}` + (total > graphs.length ? ` (first ${graphs.length} of ${total})` : "");
  nav.appendChild(label);
  if (graphs.length > 1) {
    for (const [txt, step] of [["‹", -1], ["›", 1]]) {
      const b = document.createElement("button");
      b.textContent = txt;
      b.addEventListener("click", () => {
        graphIndex = (graphIndex + step + graphs.length) % graphs.length;
        drawGraph(d);
      });
      nav.appendChild(b);
    }
  }
  const svg = putGraph(el, graphs[graphIndex]);
  if (svg) highlightCycle(svg);
}

// The cycle sequential consistency forbids (reached case), on the
// execution graph.  The explanation and the graph name events
// differently, so events are matched by what they are: the thread, the
// access ("W[x]=1") and, for equal ones, their order in the thread.
function eventKeys(list) {
  const seen = {};
  const out = {};
  for (const [id, thread, desc] of list) {
    const k = `${thread}|${desc}`;
    seen[k] = (seen[k] || 0) + 1;
    out[`${k}|${seen[k]}`] = id;
  }
  return out;
}

function highlightCycle(svg) {
  const w = lastExplain && lastExplain.witness;
  if (!w || !w.sc_cycle || !w.events) return;
  const nodes = [];
  for (const n of svg.querySelectorAll("g.node")) {
    const title = n.querySelector("title");
    const texts = [...n.querySelectorAll("text")].map((t) => t.textContent.trim());
    if (!title || !texts.length) continue;
    const m = /^[\w]+:\s*(.*)$/.exec(texts[0]);
    if (!m) continue;
    const p = /proc:P(\d+)\s+poi:(\d+)/.exec(texts.join(" "));
    nodes.push([title.textContent.trim(), p ? +p[1] : -1, m[1], p ? +p[2] : 0]);
  }
  nodes.sort((a, b) => a[3] - b[3]);
  const graphIds = eventKeys(nodes);
  const xIds = eventKeys(w.events.map((e) => [e.id, e.thread, e.desc]));
  const toGraph = {};
  for (const k in xIds) if (graphIds[k]) toGraph[xIds[k]] = graphIds[k];
  const edges = {};
  for (const e of svg.querySelectorAll("g.edge")) {
    const title = e.querySelector("title");
    if (title) (edges[title.textContent.trim()] ||= []).push(e);
  }
  for (const step of w.sc_cycle) {
    const a = toGraph[step.from], b = toGraph[step.to];
    if (!a || !b) continue;
    // several relations may join the same events: the cycle's one; when
    // the graph names it otherwise (mem-po drawn as po), the first edge
    const between = edges[`${a}->${b}`] || [];
    const named = between.filter((e) => {
      const label = e.querySelector("text");
      const rel = label ? label.textContent.trim() : "";
      return !label || rel === step.rel || step.rel.startsWith(rel);
    });
    for (const e of named.length ? named : between.slice(0, 1)) e.classList.add("hl");
  }
}

function cycleText(steps) {
  const frag = document.createDocumentFragment();
  steps.forEach((s, i) => {
    if (i === 0) frag.appendChild(document.createTextNode(s.from));
    const r = document.createElement("span");
    r.className = "rel";
    r.textContent = ` —${s.rel}→ `;
    frag.appendChild(r);
    frag.appendChild(document.createTextNode(s.to));
  });
  return frag;
}

function drawExplain(d) {
  const x = d.explain;
  const c = $("cycle");
  c.innerHTML = "";
  const note = document.createElement("span");
  note.className = "note";
  if (x.reached) {
    const w = x.witness || {};
    if (w.sc_cycle && w.sc_cycle.length) {
      c.appendChild(cycleText(w.sc_cycle));
      note.textContent = "The condition is reached: a cycle sequential consistency forbids, in dark red on the execution graph and in red below.";
    } else {
      note.textContent = "The condition is reached by an execution sequential consistency allows too.";
    }
  } else if (x.groups && x.groups.length) {
    const g = x.groups[0];
    const ex = g.executions && g.executions[0];
    const steps = ex && ex.witness ? (ex.witness.cycle || ex.witness.edges || []) : [];
    if (steps.length) c.appendChild(cycleText(steps));
    note.textContent = `The condition is never reached: check ${g.check ? "“" + g.check + "” " : ""}(${g.text}, ${g.pos}) rejects ${g.count} candidate${g.count === 1 ? "" : "s"} reaching it` +
      (x.groups.length > 1 ? `; ${x.groups.length - 1} other check${x.groups.length > 2 ? "s" : ""} too (see the text)` : "") + ". In red below.";
  } else {
    note.textContent = "No candidate execution reaches the condition.";
  }
  c.appendChild(note);
  const xg = $("xgraph");
  xg.innerHTML = "";
  const g0 = (d.explain_graphs || [])[0];
  xg.hidden = !g0;
  if (g0) putGraph(xg, g0);
  $("xtext").textContent = d.explain_text || "";
}

init();
