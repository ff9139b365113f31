// djebel web client: lobby, Algeria board, skirmish table. Vanilla JS and SVG.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const $main = document.getElementById("main");
const $conn = document.getElementById("conn");

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "onclick" || k === "onchange" || k === "oninput") e[k] = v;
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  }
  for (const k of kids.flat()) {
    if (k === null || k === undefined || k === false) continue;
    e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return e;
}

function s(tag, attrs, ...kids) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "onclick") e.addEventListener("click", v);
    else if (k === "title") { const t = document.createElementNS(SVGNS, "title"); t.textContent = v; e.append(t); }
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v);
  }
  for (const k of kids.flat()) {
    if (k === null || k === undefined || k === false) continue;
    e.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
  return e;
}

async function api(method, path, body, token) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Seat-Token"] = token;
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await r.json(); } catch (e) { data = null; }
  return { status: r.status, data };
}

// ------------------------------------------------------------------ lobby
async function lobby() {
  const meta = (await api("GET", "/api/meta")).data;
  const sides = { algeria: ["fln", "gov"], skirmish: ["french", "insurgents"] };
  const form = el("div", { class: "panel" });
  const out = el("div", { class: "links", id: "created" });
  const $game = el("select", { id: "new-game" }, el("option", { value: "algeria" }, "Algeria (1954-1962)"),
    el("option", { value: "skirmish" }, "Insurgent Commander (skirmish)"));
  const $scn = el("select", { id: "new-scenario" });
  const $opts = el("div", { id: "new-options" });
  const $seats = el("div", { id: "new-seats" });
  const $seed = el("input", { type: "number", id: "new-seed", placeholder: "random", min: 0 });
  const $title = el("input", { type: "text", id: "new-title", placeholder: "a name for the game" });

  function refresh() {
    const g = $game.value;
    $scn.replaceChildren(...meta[g].map(x => el("option", { value: x }, x)));
    if (g === "algeria") $scn.value = "1958";
    $opts.replaceChildren();
    if (g === "algeria") {
      for (const o of meta.algeria_options) {
        $opts.append(el("label", { style: "font-weight:normal" },
          el("input", { type: "checkbox", value: o, class: "opt" }), " " + o.replaceAll("_", " ")));
      }
    }
    $seats.replaceChildren();
    for (const side of sides[g]) {
      const sel = el("select", { id: "seat-" + side, "data-side": side },
        el("option", { value: "human" }, "human"),
        ...meta.bots[g].map(b => el("option", { value: b }, "bot: " + b)));
      if (side === sides[g][1]) sel.value = meta.bots[g].includes("heuristic") ? "heuristic" : meta.bots[g][0];
      $seats.append(el("label", {}, side.toUpperCase()), sel);
    }
  }
  $game.onchange = refresh;
  refresh();

  async function create() {
    const g = $game.value;
    const body = { game: g, scenario: $scn.value, seats: {}, options: {}, title: $title.value };
    for (const side of sides[g]) body.seats[side] = document.getElementById("seat-" + side).value;
    for (const c of $opts.querySelectorAll("input.opt")) if (c.checked) body.options[c.value] = true;
    if ($seed.value !== "") body.seed = parseInt($seed.value, 10);
    const r = await api("POST", "/api/games", body);
    showCreated(r, out);
  }
  form.append(el("h2", {}, "New game"),
    el("label", {}, "Game"), $game, el("label", {}, "Scenario"), $scn, $opts,
    el("label", {}, "Seats (a human seat gets a secret link)"), $seats,
    el("label", {}, "Seed of the dice"), $seed, el("label", {}, "Title"), $title,
    el("div", {}, el("button", { class: "primary", id: "create", onclick: create }, "Create game")), out);

  // upload a record
  const up = el("div", { class: "panel" });
  const $file = el("input", { type: "file", id: "record-file", accept: ".json,application/json" });
  const $mode = el("select", { id: "record-mode" }, el("option", { value: "continue" }, "continue it (both seats human)"),
    el("option", { value: "replay" }, "watch it replayed step by step"));
  const upOut = el("div", { class: "links" });
  up.append(el("h2", {}, "Open a record"), $file, $mode,
    el("button", { id: "upload", onclick: async () => {
      const f = $file.files[0];
      if (!f) { upOut.replaceChildren(el("div", { class: "error" }, "choose a record file")); return; }
      let rec;
      try { rec = JSON.parse(await f.text()); } catch (e) {
        upOut.replaceChildren(el("div", { class: "error" }, "not a JSON file")); return;
      }
      const r = await api("POST", "/api/records", { record: rec, mode: $mode.value });
      showCreated(r, upOut);
    } }, "Open"), upOut);

  const list = el("div", { class: "panel" }, el("h2", {}, "Recent games"));
  const games = (await api("GET", "/api/games")).data || [];
  list.append(el("table", { class: "games" },
    el("tr", {}, el("th", {}, "game"), el("th", {}, "title"), el("th", {}, "actions"), el("th", {}, "")),
    ...games.map(g => el("tr", {}, el("td", {}, g.game), el("td", {}, g.title), el("td", {}, g.ply),
      el("td", {}, el("a", { href: "/g/" + g.id }, g.mode === "replay" ? "replay" : "watch"))))));
  $main.replaceChildren(el("div", { class: "lobby" }, el("div", {}, form, up), list));
}

function showCreated(r, out) {
  if (r.status !== 201) {
    out.replaceChildren(el("div", { class: "error" }, (r.data && r.data.error) || ("error " + r.status)));
    return;
  }
  const base = location.origin;
  const rows = [el("p", { class: "small" }, "Hand each player their seat link; it is the only key to that side.")];
  for (const [side, link] of Object.entries(r.data.links)) {
    rows.push(el("label", {}, side.toUpperCase() + " seat link"),
      el("input", { type: "text", readonly: "", value: base + link, class: "seat-link", "data-side": side }),
      el("a", { href: link, class: "play-link", "data-side": side }, "play " + side));
  }
  const sides = Object.keys(r.data.seats);
  if (sides.length > 1) {
    const both = "/g/" + r.data.id + "#" + sides.map(x => "seat=" + r.data.seats[x]).join("&");
    rows.push(el("div", {}, el("a", { href: both, class: "hotseat-link" }, "play both sides on this screen (hot-seat)")));
  }
  rows.push(el("label", {}, "Watch link"), el("a", { href: r.data.watch, class: "watch-link" }, base + r.data.watch));
  out.replaceChildren(...rows);
}

// ------------------------------------------------------------------ game page
const G = {
  id: null, token: null, tokens: {}, view: null, ws: null, map: null, at: null,
  sel: { units: [], areas: [], elements: [], boxes: [] }, chosen: null, odds: null, error: null,
  point: null, sight: {},
};

// Seat tokens come in the link's fragment (#seat=TOKEN, twice for hot-seat) and are kept
// in this browser's storage, side by side, so a reload or a later visit still plays.
async function seatTokens(id) {
  const key = "djebel-seats-" + id;
  let held = {};
  try { held = JSON.parse(localStorage.getItem(key) || "{}"); } catch (e) { held = {}; }
  for (const m of location.hash.matchAll(/seat=([A-Za-z0-9_\-]+)/g)) {
    if (Object.values(held).includes(m[1])) continue;
    const r = await api("GET", "/api/games/" + id, undefined, m[1]);
    if (r.status === 200 && r.data.you) held[r.data.you] = m[1];
  }
  localStorage.setItem(key, JSON.stringify(held));
  return held;
}

async function gamePage(id) {
  G.id = id;
  G.tokens = await seatTokens(id);
  G.token = Object.values(G.tokens)[0] || null;
  await load();
  connect();
}

// Answers can arrive out of order (a load started by a websocket message can return after the
// answer to a later action): the live view never steps back to an earlier ply.
function stale(v) { return G.at === null && G.view && G.view.id === v.id && v.ply < G.view.ply; }

async function load() {
  const params = G.at !== null ? "?at=" + G.at : "";
  const r = await api("GET", "/api/games/" + G.id + params, undefined, G.token);
  if (r.status === 403) {
    G.tokens = {}; G.token = null; localStorage.removeItem("djebel-seats-" + G.id); return load();
  }
  // hot-seat: holding the seat of the side to act, play it
  if (r.status === 200 && r.data.active && r.data.active !== r.data.you && G.tokens[r.data.active] && G.at === null) {
    G.token = G.tokens[r.data.active];
    return load();
  }
  if (r.status !== 200) { $main.replaceChildren(el("div", { class: "panel error" }, (r.data && r.data.error) || "error")); return; }
  const v = r.data;
  if (stale(v)) return;
  if (G.view && G.view.ply !== v.ply) { G.sel = { units: [], areas: [], elements: [], boxes: [] }; G.chosen = null; G.odds = null; G.point = null; }
  if (!G.view || G.view.ply !== v.ply) G.sight = {};
  if (v.game === "algeria") expandUnits(v.board);
  G.view = v;
  if (v.game === "algeria" && !G.map) G.map = (await api("GET", "/api/maps/algeria")).data;
  render();
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(proto + "//" + location.host + "/api/games/" + G.id + "/ws");
  G.ws = ws;
  ws.onopen = () => { $conn.className = "conn on"; $conn.textContent = "live"; };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (G.at === null && G.view && m.ply !== G.view.ply) load();
  };
  ws.onclose = () => { $conn.className = "conn off"; $conn.textContent = "reconnecting"; setTimeout(connect, 1500); };
  if (!G.pinger) G.pinger = setInterval(() => { if (G.ws && G.ws.readyState === 1) G.ws.send("ping"); }, 25000);
}

function render() {
  const v = G.view;
  const board = el("div", { class: "boardwrap", id: "board" });
  board.append(v.game === "algeria" ? drawAlgeria(v) : drawSkirmish(v));
  const side = el("div", { class: "side" }, statusPanel(v), actionPanel(v), logPanel(v));
  $main.replaceChildren(el("div", { class: "game" }, board, side));
}

function sideBadge(side) { return el("span", { class: "who " + side }, side ? side.toUpperCase() : "-"); }

function statusPanel(v) {
  const p = el("div", { class: "panel status", id: "status" });
  p.append(el("div", {}, el("b", {}, v.title), " ", el("span", { class: "small" }, "#" + v.id)));
  const seats = Object.entries(v.seats).map(([side, st]) =>
    el("span", {}, sideBadge(side), " ", st.kind === "bot" ? "bot " + st.bot : "human", "  "));
  p.append(el("div", {}, ...seats));
  p.append(el("div", {}, "You: ", v.you ? sideBadge(v.you) : el("i", {}, "watching"),
    "  To act: ", v.active ? sideBadge(v.active) : "-", "  Actions played: ", el("b", { id: "ply" }, v.ply)));
  if (v.result) {
    p.append(el("div", { class: "result", id: "result" }, "Game over: " + (v.result.winner || "draw").toUpperCase()
      + " " + v.result.level + (v.result.reason ? " (" + v.result.reason + ")" : "")));
  }
  p.append(el("div", { class: "prompt", id: "prompt" }, v.prompt));
  if (v.mode === "replay" || G.at !== null) p.append(replayControls(v));
  p.append(el("div", {}, el("a", { href: "/api/games/" + v.id + "/record", download: "", id: "download" },
    el("button", {}, "Download record")), el("a", { href: "/" }, el("button", {}, "Lobby"))));
  return p;
}

function replayControls(v) {
  const total = v.total;
  const at = G.at === null ? total : G.at;
  const go = (n) => { G.at = Math.max(0, Math.min(total, n)); if (G.at >= total && v.mode !== "replay") G.at = null; load(); };
  const range = el("input", { type: "range", min: 0, max: total, value: at, id: "replay-range" });
  range.onchange = () => go(parseInt(range.value, 10));
  return el("div", { class: "replay" }, el("div", {}, "Replay: step ", el("b", { id: "replay-at" }, at), " of " + total),
    range,
    el("button", { onclick: () => go(0) }, "|<"), el("button", { id: "replay-back", onclick: () => go(at - 1) }, "< step"),
    el("button", { id: "replay-next", onclick: () => go(at + 1) }, "step >"), el("button", { onclick: () => go(total) }, ">|"));
}

// ---------- actions (both games)
function matching(v) {
  const sel = G.sel;
  return v.actions.filter(a => {
    if (v.game === "algeria") {
      return sel.units.every(u => a.units.includes(u)) && sel.areas.every(x => a.areas.includes(x))
        && (sel.boxes || []).every(b => a.boxes.includes(b));
    }
    if (sel.elements.length && !v.actions.some(x => x.elements.includes(sel.elements[0]))) return true;
    return sel.elements.every(e => a.elements.includes(e));
  });
}

function actionPanel(v) {
  const p = el("div", { class: "panel", id: "actions-panel" });
  if (G.error) p.append(el("div", { class: "error", id: "error" }, G.error));
  if (!v.actions.length) {
    p.append(el("div", { class: "small" }, v.over ? "The game is over." :
      v.you ? "Waiting for " + (v.active || "-") + "..." : G.at !== null || v.mode === "replay" ? "Replay." : "You are watching."));
    return p;
  }
  const acts = matching(v);
  const selTxt = [...G.sel.units, ...G.sel.areas, ...(G.sel.boxes || []), ...G.sel.elements];
  p.append(el("div", { class: "sel" }, selTxt.length ? "Selected: " + selTxt.join(", ") + " " : "Click the board or choose below. ",
    selTxt.length ? el("button", { id: "clear", onclick: () => { clearSel(); render(); } }, "clear") : null,
    el("span", { class: "small" }, " (" + acts.length + " of " + v.actions.length + " legal actions)")));
  const box = el("div", { class: "actions", id: "actions" });
  let verb = null;
  for (const a of acts.slice(0, 300)) {
    if (a.verb !== verb) { verb = a.verb; box.append(el("div", { class: "verb" }, verb)); }
    box.append(el("button", { class: "act" + (G.chosen === a.text ? " chosen" : ""), "data-action": a.text,
      onclick: () => choose(a.text) }, a.text));
  }
  p.append(box);
  if (G.chosen) {
    const c = el("div", { class: "choice", id: "choice" }, el("div", {}, "Chosen: ", el("code", {}, G.chosen)));
    if (G.odds) c.append(el("div", { class: "odds", id: "odds" }, G.odds));
    c.append(el("button", { class: "primary", id: "confirm", onclick: confirm }, "Confirm"),
      el("button", { onclick: () => { G.chosen = null; G.odds = null; G.point = null; render(); } }, "Cancel"));
    p.append(c);
  }
  return p;
}

function clearSel() { G.sel = { units: [], areas: [], elements: [], boxes: [] }; G.chosen = null; G.odds = null; G.point = null; }

async function choose(text) {
  G.chosen = text; G.odds = null; G.error = null;
  render();
  const r = await api("GET", "/api/games/" + G.id + "/odds?action=" + encodeURIComponent(text));
  if (G.chosen === text && r.status === 200 && r.data.odds) { G.odds = r.data.odds; render(); }
}

async function confirm() {
  const v = G.view;
  const r = await api("POST", "/api/games/" + G.id + "/actions", { side: v.you, action: G.chosen, ply: v.ply }, G.token);
  if (r.status === 200) {
    G.error = null; clearSel();
    if (stale(r.data)) { render(); return; }
    if (r.data.game === "algeria") expandUnits(r.data.board);
    if (r.data.active && r.data.active !== r.data.you && G.tokens[r.data.active]) { await load(); return; }
    G.view = r.data; render();
  } else if (r.status === 409) {
    G.error = "The game moved on: " + r.data.error; clearSel(); await load();
  } else {
    G.error = (r.data && r.data.error) || ("error " + r.status); render();
  }
}

function afterClick() {
  const acts = matching(G.view);
  if (acts.length === 1) { choose(acts[0].text); return; }
  G.chosen = null; G.odds = null; render();
}

function toggle(list, x) { const i = list.indexOf(x); if (i >= 0) list.splice(i, 1); else list.push(x); }

function logPanel(v) {
  const p = el("div", { class: "panel" }, el("b", {}, "Log"));
  const box = el("div", { class: "log", id: "log" });
  for (const e of v.log) {
    box.append(el("div", {}, e.side ? el("b", {}, e.side + " ") : null,
      e.rule ? el("span", { class: "rule" }, "(" + e.rule + ") ") : null, e.text, " ",
      ...(e.dice || []).map(d => el("span", { class: "die" }, d))));
  }
  p.append(box);
  setTimeout(() => { box.scrollTop = box.scrollHeight; }, 0);
  return p;
}

// ------------------------------------------------------------------ Algeria board
function expandUnits(b) {
  const out = {};
  for (const [name, [type, firepower, rating, marks]] of Object.entries(b.units)) {
    const ty = b.types[type];
    out[name] = { type, firepower, rating, side: ty.side, name: ty.name, elite: ty.elite, static: ty.static,
      neut: !!(marks & 1), airmobile: !!(marks & 2), dispersed: !!(marks & 4) };
  }
  b.units = out;
}

const TYPE_SHORT = { fr_xx: "XX", fr_x: "X", el_x: "X", al_x: "X", police: "POL",
  failek: "FK", band: "BD", cadre: "CD", front: "FRT" };
const RATING_SHORT = { urban: "Urban", rural: "Rural", remote: "Remote", country: "" };

function counterColours(u) {
  if (u.side === "fln") return { fill: u.type === "front" ? "#4b6b2a" : "#2f6f3a", text: "#fff" };
  if (u.type === "al_x" || u.type === "police") return { fill: "#6f93c0", text: "#fff" };
  if (u.elite) return { fill: "#7a1f2b", text: "#fff" };
  return { fill: "#2c4f8c", text: "#fff" };
}

function drawAlgeria(v) {
  const m = G.map, b = v.board;
  const W = m.width, H = m.height, STRIP = 150;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H + STRIP}`, id: "algeria-board", "font-family": "DejaVu Sans, sans-serif" });
  const pts = (ring) => ring.map(p => p.join(",")).join(" ");
  const acts = matching(v);
  const hotUnits = new Set(acts.flatMap(a => a.units));
  const hotAreas = new Set(acts.flatMap(a => a.areas));
  const areaById = Object.fromEntries(b.areas.map(a => [a.id, a]));

  // sea, neighbours, land, wilayas
  const defs = s("defs", {},
    s("pattern", { id: "hatch-fln", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 8, height: 8, fill: "#2f6f3a", opacity: 0.10 }), s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#2f6f3a", "stroke-width": 3, opacity: 0.35 })),
    s("pattern", { id: "hatch-gov", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(-45)" },
      s("rect", { width: 8, height: 8, fill: "#2c4f8c", opacity: 0.10 }), s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#2c4f8c", "stroke-width": 3, opacity: 0.35 })),
    s("filter", { id: "shadow", x: "-10%", y: "-10%", width: "130%", height: "130%" },
      s("feDropShadow", { dx: 1.5, dy: 1.5, stdDeviation: 1.2, "flood-opacity": 0.35 })));
  svg.append(defs);
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, fill: "#bcd3df" }));
  for (let i = 1; i < 6; i++) svg.append(s("path", { d: `M0 ${i * 22} Q ${W / 4} ${i * 22 - 8} ${W / 2} ${i * 22} T ${W} ${i * 22}`, stroke: "#a9c4d3", fill: "none", "stroke-width": 1 }));
  svg.append(s("text", { x: W * 0.47, y: 40, "font-size": 22, fill: "#6d8fa3", "font-style": "italic", "letter-spacing": 6 }, "MEDITERRANEAN  SEA"));
  svg.append(s("polygon", { points: pts(m.morocco), fill: "#d6cfc2", stroke: "#8c8270", "stroke-width": 1.5 }));
  svg.append(s("polygon", { points: pts(m.tunisia), fill: "#d6cfc2", stroke: "#8c8270", "stroke-width": 1.5 }));
  svg.append(s("polygon", { points: pts(m.land), fill: "#efe3c8", stroke: "#6b5a3c", "stroke-width": 2.5 }));

  for (const [id, a] of Object.entries(m.areas)) {
    const st = areaById[id];
    for (const ring of a.cells) {
      svg.append(s("polygon", { points: pts(ring), fill: m.colours[a.wilaya] || "#eee", stroke: "#b09f7c", "stroke-width": 0.8 }));
      if (st && st.control) svg.append(s("polygon", { points: pts(ring), fill: `url(#hatch-${st.control})`, stroke: "none" }));
      svg.append(s("polygon", { points: pts(ring), fill: "transparent", stroke: hotAreas.has(id) ? "#e0a800" : "none",
        "stroke-width": hotAreas.has(id) ? 3 : 0, class: "clickable area-cell", "data-area": id,
        onclick: () => clickArea(id), title: `${a.name} (${id})` }));
    }
  }
  for (const [w, info] of Object.entries(m.wilayas)) {
    for (const ring of info.rings) svg.append(s("polygon", { points: pts(ring), fill: "none", stroke: "#7a4a24", "stroke-width": 2.2, "stroke-dasharray": "9,3,2,3" }));
  }
  // Sahara hint and neighbour names
  svg.append(s("text", { x: 40, y: 300, "font-size": 20, fill: "#8c8270", "letter-spacing": 4 }, "MOROCCO"));
  svg.append(s("text", { x: W - 150, y: 300, "font-size": 20, fill: "#8c8270", "letter-spacing": 4 }, "TUNISIA"));
  svg.append(s("text", { x: W * 0.55, y: H - 24, "font-size": 18, fill: "#b59d6e", "letter-spacing": 10, "font-style": "italic" }, "S A H A R A"));
  for (const [w, info] of Object.entries(m.wilayas)) {
    svg.append(s("text", { x: info.label[0], y: info.label[1] + 60, "font-size": 34, "font-weight": "bold", fill: "#7a4a24", opacity: 0.16, "text-anchor": "middle" }, "W" + w));
  }
  // towns and leader lines
  for (const [id, a] of Object.entries(m.areas)) {
    const c = m.cards[id];
    if (!c || id === "MOROCCO" || id === "TUNISIA") continue;
    const cx = Math.max(c[0], Math.min(a.town[0], c[0] + m.card_w));
    const cy = Math.max(c[1], Math.min(a.town[1], c[1] + m.card_h));
    svg.append(s("line", { x1: a.town[0], y1: a.town[1], x2: cx, y2: cy, stroke: "#5a4a32", "stroke-width": 1, opacity: 0.7 }));
    svg.append(s("circle", { cx: a.town[0], cy: a.town[1], r: 4, fill: "#3b3024", stroke: "#fff", "stroke-width": 1 }));
  }
  for (const id of Object.keys(m.cards)) svg.append(areaCard(v, id, m, areaById[id], hotUnits, hotAreas));
  svg.append(franceBox(v, hotUnits, hotAreas));
  svg.append(trackStrip(v, W, H, STRIP));
  return svg;
}

function areaCard(v, id, m, st, hotUnits, hotAreas) {
  const [x, y] = m.cards[id], w = m.card_w, h = m.card_h;
  const boxActs = matching(v).filter(a => a.boxes.length && (a.areas.includes(id) || (!a.areas.length && a.units.some(u => (st.boxes.UG.concat(st.boxes.OPS, st.boxes.OC, st.boxes.PTL)).includes(u)) ) || (!a.areas.length && !a.units.length && selectedUnitIn(v, st))));
  const hotBoxes = new Set(boxActs.flatMap(a => a.boxes));
  const info = m.areas[id];
  const g = s("g", { transform: `translate(${x},${y})`, class: "area-card", "data-area": id });
  const picked = G.sel.areas.includes(id);
  g.append(s("rect", { x: 0, y: 0, width: w, height: h, rx: 4, fill: "#fffdf6", stroke: picked ? "#ff3300" : hotAreas.has(id) ? "#e0a800" : "#6b5a3c",
    "stroke-width": picked || hotAreas.has(id) ? 3 : 1.2, filter: "url(#shadow)" }));
  const ctrlFill = st.control === "fln" ? "#2f6f3a" : st.control === "gov" ? "#2c4f8c" : "#8c7b5a";
  g.append(s("rect", { x: 0, y: 0, width: w, height: 16, rx: 4, fill: ctrlFill, class: "clickable", onclick: () => clickArea(id),
    title: `${info.name} (${id}), wilaya ${info.wilaya || "-"}, ${st.rating}${st.control ? ", " + st.control.toUpperCase() + " control" : ", contested"}` }));
  g.append(s("text", { x: 4, y: 12, "font-size": 10.5, "font-weight": "bold", fill: "#fff" }, info.name.length > 16 ? info.name.slice(0, 15) + "." : info.name));
  g.append(s("text", { x: w - 4, y: 12, "font-size": 9, fill: "#fff", "text-anchor": "end" }, id === "MOROCCO" || id === "TUNISIA" ? "" : (RATING_SHORT[st.rating] || "")));
  let mx = w - 4;
  const marker = (txt, fill, title) => {
    mx -= 16;
    g.append(s("circle", { cx: mx + 8, cy: -6, r: 8, fill, stroke: "#fff", "stroke-width": 1.5, title }));
    g.append(s("text", { x: mx + 8, y: -2.5, "font-size": 9, "font-weight": "bold", fill: "#fff", "text-anchor": "middle" }, txt));
  };
  if (st.terror) marker("T", "#b01818", "Terror marker");
  if (st.resettled) marker("R", "#6b4a1a", "Resettled");
  if (st.control) marker(st.control === "fln" ? "F" : "G", ctrlFill, st.control.toUpperCase() + " control");
  const boxes = ["UG", "OPS", "OC", "PTL"];
  const rowH = (h - 18) / 4;
  boxes.forEach((bx, i) => {
    const ry = 17 + i * rowH;
    const boxHot = hotBoxes.has(bx);
    g.append(s("rect", { x: 1, y: ry, width: w - 2, height: rowH - 1, fill: boxHot ? "#fff1b8" : i % 2 ? "#f6f0e2" : "#fbf7ee",
      class: "clickable box-row", "data-box": bx, onclick: () => clickBox(id, bx), title: `${bx} box of ${info.name}` }));
    g.append(s("text", { x: 4, y: ry + rowH / 2 + 3, "font-size": 8.5, fill: "#7a6a4a", "font-weight": "bold" }, bx));
    const units = st.boxes[bx] || [];
    const avail = w - 30, cw = 26;
    const step = units.length > 1 ? Math.min(cw + 1, (avail - cw) / (units.length - 1)) : cw;
    units.forEach((name, k) => g.append(counter(v, name, 27 + k * step, ry + 0.5, cw, rowH - 2, hotUnits)));
  });
  return g;
}

function counter(v, name, x, y, w, h, hotUnits) {
  const u = v.board.units[name];
  const c = counterColours(u);
  const picked = G.sel.units.includes(name);
  const hot = hotUnits.has(name);
  const g = s("g", { class: "counter clickable", "data-unit": name, onclick: (ev) => { ev.stopPropagation(); clickUnit(name); } });
  const flags = [u.neut ? "neutralized" : "", u.airmobile ? "airmobile" : "", u.dispersed ? "dispersed" : ""].filter(Boolean).join(", ");
  g.append(s("rect", { x, y, width: w, height: h, rx: 2, fill: c.fill, opacity: u.neut ? 0.45 : 1,
    stroke: picked ? "#ff3300" : hot ? "#ffcc00" : "#111", "stroke-width": picked ? 2.5 : hot ? 2.2 : 0.7,
    "stroke-dasharray": u.dispersed ? "3,1.5" : null,
    title: `${name}: ${u.name}, firepower ${u.firepower}, ${u.side === "gov" ? "contact" : "evasion"} ${u.rating}${flags ? " (" + flags + ")" : ""}` }));
  g.append(s("text", { x: x + w / 2, y: y + h * 0.47, "font-size": 7.5, "font-weight": "bold", fill: c.text, "text-anchor": "middle" },
    (u.elite && u.side === "gov" ? "\u2605" : "") + TYPE_SHORT[u.type]));
  g.append(s("text", { x: x + w / 2, y: y + h * 0.92, "font-size": 6.5, fill: c.text, "text-anchor": "middle" },
    u.static ? String(u.firepower) : `${u.firepower}-${u.rating}`));
  if (u.neut) g.append(s("line", { x1: x, y1: y + h, x2: x + w, y2: y, stroke: "#111", "stroke-width": 1.2 }));
  if (u.airmobile) g.append(s("polygon", { points: `${x + w - 7},${y} ${x + w},${y} ${x + w},${y + 7}`, fill: "#ffd400", stroke: "#111", "stroke-width": 0.5 }));
  return g;
}

function franceBox(v, hotUnits, hotAreas) {
  const st = v.board.areas.find(a => a.id === "FRANCE");
  const x = 20, y = 14, w = 330, h = 104;
  const g = s("g", { class: "area-card", "data-area": "FRANCE" });
  const picked = G.sel.areas.includes("FRANCE");
  g.append(s("rect", { x, y, width: w, height: h, rx: 5, fill: "#fffdf6", stroke: picked ? "#ff3300" : hotAreas.has("FRANCE") ? "#e0a800" : "#6b5a3c", "stroke-width": picked || hotAreas.has("FRANCE") ? 3 : 1.2, filter: "url(#shadow)" }));
  g.append(s("rect", { x, y, width: w, height: 18, rx: 5, fill: "#3b3024", class: "clickable", onclick: () => clickArea("FRANCE"), title: "France (units and cadres across the sea)" }));
  g.append(s("text", { x: x + 6, y: y + 13, "font-size": 11, "font-weight": "bold", fill: "#fff" }, "FRANCE"));
  const boxes = ["UG", "OPS", "OC", "PTL"];
  const rowH = (h - 20) / 4;
  boxes.forEach((bx, i) => {
    const ry = y + 19 + i * rowH;
    g.append(s("text", { x: x + 4, y: ry + rowH / 2 + 3, "font-size": 8.5, fill: "#7a6a4a", "font-weight": "bold" }, bx));
    const units = st.boxes[bx] || [];
    const step = units.length > 1 ? Math.min(27, (w - 60) / (units.length - 1)) : 27;
    units.forEach((name, k) => g.append(counter(v, name, x + 28 + k * step, ry + 0.5, 26, rowH - 2, hotUnits)));
  });
  return g;
}

function trackStrip(v, W, H, STRIP) {
  const b = v.board, t = b.tracks;
  const g = s("g", { transform: `translate(0,${H})`, id: "tracks" });
  g.append(s("rect", { x: 0, y: 0, width: W, height: STRIP, fill: "#e8dfc9", stroke: "#6b5a3c" }));
  // PSL track 0..100 in cells of 5
  const x0 = 20, y0 = 14, cell = 13;
  g.append(s("text", { x: x0, y: y0 - 2, "font-size": 11, "font-weight": "bold", fill: "#3b3024" }, "Political Support Levels"));
  for (let i = 0; i <= 100; i += 2) {
    const cx = x0 + (i / 2) * cell;
    g.append(s("rect", { x: cx, y: y0 + 2, width: cell, height: 22, fill: i % 10 === 0 ? "#f3ead7" : "#fbf7ee", stroke: "#b09f7c", "stroke-width": 0.6 }));
    if (i % 10 === 0) g.append(s("text", { x: cx + cell / 2, y: y0 + 36, "font-size": 8, fill: "#6b5a3c", "text-anchor": "middle" }, i));
  }
  const pslMarker = (val, label, fill, dy) => {
    const cx = x0 + Math.floor(Math.max(0, Math.min(100, val)) / 2) * cell;
    g.append(s("rect", { x: cx - 3, y: y0 + dy, width: cell + 6, height: 12, rx: 2, fill, stroke: "#111", "stroke-width": 0.7, id: "psl-" + label.toLowerCase() },
      s("title", {}, `${label} PSL ${val}`)));
    g.append(s("text", { x: cx + cell / 2, y: y0 + dy + 9, "font-size": 7.5, fill: "#fff", "text-anchor": "middle", "font-weight": "bold" }, label));
  };
  pslMarker(t.fln_psl, "FLN", "#2f6f3a", 1);
  pslMarker(t.gov_psl, "GOV", "#2c4f8c", 13);
  g.append(s("text", { x: x0 + 52 * cell, y: y0 + 12, "font-size": 12, fill: "#2f6f3a", "font-weight": "bold" }, `FLN ${t.fln_psl}`));
  g.append(s("text", { x: x0 + 52 * cell, y: y0 + 26, "font-size": 12, fill: "#2c4f8c", "font-weight": "bold" }, `GOV ${t.gov_psl}`));
  // small tracks
  const small = [["AP", t.ap, 30, "#2f6f3a"], ["Air", t.air_avail + "/" + t.air_max, 20, "#2c4f8c"],
    ["Helo", t.helo_avail + "/" + t.helo_max, 20, "#2c4f8c"], ["Naval", t.naval, 10, "#2c4f8c"]];
  let sx = 20;
  const sy = 70;
  for (const [name, val, , fill] of small) {
    g.append(s("rect", { x: sx, y: sy, width: 92, height: 30, rx: 4, fill: "#fbf7ee", stroke: "#6b5a3c" }));
    g.append(s("text", { x: sx + 6, y: sy + 12, "font-size": 9, fill: "#6b5a3c" }, name + " points"));
    g.append(s("text", { x: sx + 6, y: sy + 26, "font-size": 13, "font-weight": "bold", fill, id: "track-" + name.toLowerCase() }, String(val)));
    sx += 100;
  }
  const bz = t.bz === null ? "not mobilized" : (t.bz >= 0 ? "+" : "") + t.bz + (t.bz_active ? " active" : "");
  g.append(s("rect", { x: sx, y: sy, width: 140, height: 30, rx: 4, fill: "#fbf7ee", stroke: "#6b5a3c" }));
  g.append(s("text", { x: sx + 6, y: sy + 12, "font-size": 9, fill: "#6b5a3c" }, "Border Zone"));
  g.append(s("text", { x: sx + 6, y: sy + 26, "font-size": 12, "font-weight": "bold", fill: "#7a4a24" }, bz));
  sx += 150;
  // turn and phase
  g.append(s("rect", { x: sx, y: sy, width: 230, height: 30, rx: 4, fill: "#3b3024" }));
  g.append(s("text", { x: sx + 8, y: sy + 20, "font-size": 14, "font-weight": "bold", fill: "#f6d38b", id: "turn-phase" },
    `Turn ${b.turn}${t.turn_limit ? "/" + t.turn_limit : ""} \u2014 ${b.phase}`));
  sx += 240;
  const flags = [t.independent ? "Morocco & Tunisia independent" : "", t.amnesty ? "Amnesty" : "", t.jealousy ? "Jealousy & Paranoia" : "",
    t.slow_french ? "Slow French reaction" : "", t.oas !== "inactive" ? "OAS " + t.oas + (t.oas_controller ? " (" + t.oas_controller.toUpperCase() + ")" : "") : ""].filter(Boolean);
  g.append(s("text", { x: sx, y: sy + 12, "font-size": 10, fill: "#3b3024" }, flags.join(" \u00b7 ") || ""));
  // off-map boxes
  const off = b.offmap;
  const count = (names) => { const c = {}; for (const n of names) { const ty = b.units[n].type; c[ty] = (c[ty] || 0) + 1; } return Object.entries(c).map(([k, n]) => `${n} ${k}`).join(", "); };
  g.append(s("text", { x: 20, y: sy + 50, "font-size": 10, fill: "#3b3024" },
    `Available: ${count(off.pool) || "none"}` + (off.nato.length ? `  |  NATO: ${count(off.nato)}` : "") + (off.suez.length ? `  |  Suez: ${count(off.suez)}` : "")
    + (off.removed.length ? `  |  removed: ${count(off.removed)}` : "")));
  // legend
  const lx = W - 300;
  g.append(s("text", { x: lx, y: 16, "font-size": 10, "font-weight": "bold", fill: "#3b3024" }, "Counters: type, firepower-contact/evasion"));
  const legend = [["#2c4f8c", "French"], ["#7a1f2b", "French elite"], ["#6f93c0", "Algerian/Police"], ["#2f6f3a", "FLN"]];
  legend.forEach(([fill, name], i) => {
    g.append(s("rect", { x: lx + (i % 2) * 140, y: 24 + Math.floor(i / 2) * 18, width: 14, height: 12, fill }));
    g.append(s("text", { x: lx + 18 + (i % 2) * 140, y: 34 + Math.floor(i / 2) * 18, "font-size": 10, fill: "#3b3024" }, name));
  });
  g.append(s("text", { x: lx, y: 72, "font-size": 9.5, fill: "#3b3024" }, "faded + slash: neutralized \u00b7 yellow corner: airmobile"));
  g.append(s("text", { x: lx, y: 86, "font-size": 9.5, fill: "#3b3024" }, "dashed edge: dispersed division \u00b7 T terror, R resettled"));
  g.append(s("text", { x: lx, y: 100, "font-size": 9.5, fill: "#3b3024" }, "hatching: area control (green FLN, blue GOV)"));
  return g;
}

function clickUnit(name) {
  const v = G.view;
  if (!v.actions.some(a => a.units && a.units.includes(name))) return;
  toggle(G.sel.units, name);
  if (!matching(v).length) { G.sel.units = [name]; G.sel.areas = []; }
  afterClick();
}

function selectedUnitIn(v, st) {
  // the unit the pending decision is about (named in the prompt) is in this area
  const all = st.boxes.UG.concat(st.boxes.OPS, st.boxes.OC, st.boxes.PTL);
  return all.some(u => new RegExp("\\b" + u + "\\b").test(v.prompt));
}

function clickBox(area, box) {
  const v = G.view;
  if (!v.actions.some(a => a.boxes && a.boxes.includes(box))) { clickArea(area); return; }
  G.sel.boxes = [box];
  if (v.actions.some(a => a.areas.includes(area) && a.boxes.includes(box))) G.sel.areas = [area];
  if (!matching(v).length) { G.sel.boxes = [box]; G.sel.areas = []; G.sel.units = []; }
  afterClick();
}

function clickArea(id) {
  const v = G.view;
  if (!v.actions.some(a => a.areas && a.areas.includes(id))) return;
  toggle(G.sel.areas, id);
  if (!matching(v).length) { G.sel.areas = [id]; }
  afterClick();
}

// ------------------------------------------------------------------ skirmish table
const FILL = {
  road: "#d8c9a3", river: "#9cc3e6", canal: "#8fb8e0", ford: "#b7d3ea", bridge: "#bba88a",
  footbridge: "#bba88a", building: "#8d7b68", wall: "#5e5347", sandbag_emplacement: "#b59a62",
  bunker: "#6b6b6b", dense_woods: "#3f7a3a", light_woods: "#7fae6f", orchard: "#a5c98a",
  crop_field: "#e6dc8a", hill: "#d9c4a0", crest: "#c9ae7e", rocky_ground: "#b3a89a",
  open_ground: "#eef0d8", wreck: "#444444",
};
const ORDER = ["hill", "crest", "open_ground", "crop_field", "orchard", "rocky_ground", "river", "canal", "ford",
  "road", "bridge", "footbridge", "light_woods", "dense_woods", "sandbag_emplacement", "building", "bunker", "wall", "wreck"];
const SIDE_FILL = { french: "#1f4e9c", insurgents: "#a32020" };
const SK = 6;

function drawSkirmish(v) {
  const b = v.board;
  const W = b.width * SK, D = b.depth * SK;
  const X = (x) => (x * SK).toFixed(1), Y = (y) => ((b.depth - y) * SK).toFixed(1);
  const svg = s("svg", { viewBox: `-20 -20 ${W + 40} ${D + 40}`, id: "skirmish-table", "data-depth": b.depth, "font-family": "DejaVu Sans, sans-serif" });
  svg.append(s("rect", { x: -20, y: -20, width: W + 40, height: D + 40, fill: "#5b4a36" }));
  const table = s("rect", { x: 0, y: 0, width: W, height: D, fill: "#e9e4c9", class: "clickable", id: "table-surface" });
  table.addEventListener("click", (ev) => clickTable(ev, svg, b));
  svg.append(table);
  for (let gx = 0; gx <= b.width; gx += 10) svg.append(s("line", { x1: X(gx), y1: 0, x2: X(gx), y2: D, stroke: "#d6cfae", "stroke-width": gx % 50 === 0 ? 1 : 0.4, "pointer-events": "none" }));
  for (let gy = 0; gy <= b.depth; gy += 10) svg.append(s("line", { x1: 0, y1: Y(gy), x2: W, y2: Y(gy), stroke: "#d6cfae", "stroke-width": gy % 50 === 0 ? 1 : 0.4, "pointer-events": "none" }));
  const feats = [...b.terrain].sort((a, c) => (ORDER.indexOf(a.kind) + 100) % 120 - (ORDER.indexOf(c.kind) + 100) % 120);
  for (const f of feats) {
    for (const p of f.polys) {
      svg.append(s("polygon", { points: p.map(([x, y]) => X(x) + "," + Y(y)).join(" "), fill: FILL[f.kind] || "#ccc",
        "fill-opacity": 0.9, stroke: "#5e5347", "stroke-width": f.kind === "wall" ? 1.5 : 0.6, "pointer-events": "none", title: `${f.id} (${f.kind.replaceAll("_", " ")})` }));
    }
  }
  b.civilians.forEach((c, i) => {
    svg.append(s("circle", { cx: X(c.x), cy: Y(c.y), r: 1.5 * SK, fill: c.hits ? "#222" : "#f5a623", stroke: "#333", "pointer-events": "none",
      title: `civilians (${c.hits} casualties)`, class: "civilians" }));
    if (c.hits) svg.append(s("text", { x: X(c.x), y: +Y(c.y) + 3, "font-size": 9, fill: "#fff", "text-anchor": "middle" }, c.hits));
  });
  for (const m of b.markers) {
    svg.append(s("rect", { x: +X(m.x) - 1.5 * SK, y: +Y(m.y) - 1.5 * SK, width: 3 * SK, height: 3 * SK, fill: "#fff", stroke: "#c00", "stroke-width": 2, "pointer-events": "none", title: "casualty " + m.label }));
    svg.append(s("text", { x: X(m.x), y: +Y(m.y) + 3, "font-size": 8, fill: "#c00", "text-anchor": "middle" }, "+"));
  }
  const sel = G.sel.elements[0];
  const selEl = sel ? b.elements.find(e => e.label === sel) : null;
  const acts = matching(v);
  const hot = new Set(acts.flatMap(a => a.elements));
  if (selEl && selEl.on_table) {
    if (selEl.sprint_cm) svg.append(s("circle", { cx: X(selEl.x), cy: Y(selEl.y), r: selEl.sprint_cm * SK, fill: "#ffe680", "fill-opacity": 0.10, stroke: "#b08a00", "stroke-dasharray": "6,4", "pointer-events": "none", id: "sprint-range" }));
    if (selEl.move_cm) svg.append(s("circle", { cx: X(selEl.x), cy: Y(selEl.y), r: selEl.move_cm * SK, fill: "#ffe680", "fill-opacity": 0.25, stroke: "#b08a00", "pointer-events": "none", id: "move-range" }));
    for (const t of (G.sight[sel] || [])) {
      const o = b.elements.find(e => e.label === t);
      svg.append(s("line", { x1: X(selEl.x), y1: Y(selEl.y), x2: X(o.x), y2: Y(o.y), stroke: "#1a1a1a", "stroke-width": 1, "stroke-dasharray": "3,3", "pointer-events": "none", class: "sight" }));
    }
    // candidate destinations offered by the rules
    for (const a of acts) {
      if (!a.point || a.elements[0] !== sel) continue;
      svg.append(s("circle", { cx: X(a.point[0]), cy: Y(a.point[1]), r: 5, fill: G.chosen === a.text ? "#ff3300" : "#fff", stroke: "#b08a00", "stroke-width": 2,
        class: "clickable dest", "data-action": a.text, onclick: (ev) => { ev.stopPropagation(); G.point = null; choose(a.text); }, title: a.text }));
    }
  }
  if (G.point) svg.append(s("circle", { cx: X(G.point[0]), cy: Y(G.point[1]), r: 6, fill: "#ff3300", stroke: "#000", "pointer-events": "none" }));
  if (b.last_fire) {
    const [f, t] = b.last_fire.map(l => b.elements.find(e => e.label === l));
    if (f && t && f.on_table && t.on_table) svg.append(s("line", { x1: X(f.x), y1: Y(f.y), x2: X(t.x), y2: Y(t.y), stroke: "#e60000", "stroke-width": 2, "stroke-dasharray": "6,3", "pointer-events": "none" }));
  }
  const labels = [];
  for (const e of b.elements) {
    if (!e.on_table) continue;
    const pts = e.corners.map(([x, y]) => X(x) + "," + Y(y)).join(" ");
    const picked = G.sel.elements.includes(e.label);
    const status = [e.pinned ? "pinned" : "", e.overwatch ? "overwatch" : "", e.infantry && e.sp < e.strength ? `${e.sp}/${e.strength} SP` : "",
      ...e.damage, e.immobilized ? "immobilized" : "", e.airborne ? "airborne" : ""].filter(Boolean);
    const g = s("g", { class: "element clickable", "data-element": e.label, onclick: (ev) => { ev.stopPropagation(); clickElement(e.label); } });
    g.append(s("polygon", { points: pts, fill: SIDE_FILL[e.side], "fill-opacity": e.pinned ? 0.45 : 0.9,
      stroke: picked ? "#ff3300" : hot.has(e.label) ? "#ffcc00" : "#000", "stroke-width": picked ? 3 : hot.has(e.label) ? 2.5 : 1,
      "stroke-dasharray": e.airborne ? "5,3" : null, title: `${e.label} ${e.name} (${e.side}) ${status.join(", ")}` }));
    const rad = e.facing * Math.PI / 180, r = (e.d / 2 + 2.5);
    g.append(s("line", { x1: X(e.x), y1: Y(e.y), x2: X(e.x + Math.cos(rad) * r), y2: Y(e.y + Math.sin(rad) * r), stroke: "#000", "stroke-width": 2, "marker-end": null }));
    g.append(s("circle", { cx: X(e.x + Math.cos(rad) * r), cy: Y(e.y + Math.sin(rad) * r), r: 2, fill: "#000" }));
    const tag = e.label + (e.infantry ? " " + e.sp + "SP" : "") + (e.pinned ? " PIN" : "") + (e.overwatch ? " OW" : "") + (e.damage.length ? " DMG" : "");
    let ly = +Y(e.y) - 9;
    const lx = +X(e.x) + 9;
    while (labels.some(([ax, ay]) => Math.abs(ax - lx) < 70 && Math.abs(ay - ly) < 12)) ly -= 13;
    labels.push([lx, ly]);
    g.append(s("text", { x: lx, y: ly, "font-size": 11, "font-weight": "bold", fill: SIDE_FILL[e.side], stroke: "#fff", "stroke-width": 2.5, "paint-order": "stroke" }, tag));
    svg.append(g);
  }
  const off = b.elements.filter(e => !e.on_table).map(e => e.label + " " + e.name.replaceAll("_", " ")
    + (e.removed ? " (" + e.removed + ")" : e.embarked_in ? " (in " + e.embarked_in + ")" : " (off table)"));
  if (off.length) {
    const lines = [];
    let line = "Not on the table: ";
    for (const o of off) {
      if (line.length + o.length > 150) { lines.push(line); line = ""; }
      line += (line && !line.endsWith(": ") ? " \u00b7 " : "") + o;
    }
    lines.push(line);
    lines.forEach((t, i) => svg.append(s("text", { x: 0, y: D + 14 + i * 13, "font-size": 10.5, fill: "#f3ead7", class: "off-table" }, t)));
    svg.setAttribute("viewBox", `-20 -20 ${W + 40} ${D + 40 + 13 * (lines.length - 1)}`);
    svg.querySelector("rect").setAttribute("height", D + 40 + 13 * (lines.length - 1));
  }
  const legend = `${b.name} \u2014 turn ${b.turn}/${b.turn_limit}, ${b.phasing} phase \u2014 points: French ${b.score.french}, Insurgents ${b.score.insurgents}`;
  svg.append(s("text", { x: 0, y: -6, "font-size": 13, "font-weight": "bold", fill: "#f3ead7", id: "table-title" }, legend));
  return svg;
}

function svgPoint(ev, svg, b) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [Math.round(p.x / SK * 10) / 10, Math.round((b.depth - p.y / SK) * 10) / 10];
}

function clickTable(ev, svg, b) {
  const v = G.view;
  const sel = G.sel.elements[0];
  if (!sel) return;
  const e = b.elements.find(x => x.label === sel);
  const [x, y] = svgPoint(ev, svg, b);
  const verbs = new Set(matching(v).filter(a => a.point && a.elements[0] === sel).map(a => a.verb));
  if (!verbs.size) return;
  const dist = Math.hypot(x - e.x, y - e.y);
  let verb = verbs.has("move") && dist <= (e.move_cm || 0) + 0.01 ? "move" : verbs.has("sprint") ? "sprint" : [...verbs][0];
  if (verb === "place" && !verbs.has("place")) return;
  const face = ((Math.atan2(y - e.y, x - e.x) * 180 / Math.PI) + 360) % 360;
  G.point = [x, y];
  const text = `${verb} ${sel} ${x} ${y} face ${Math.round(face)}`;
  choose(text);
}

async function fetchSight(label) {
  if (G.sight[label]) return;
  const at = G.at !== null ? "&at=" + G.at : "";
  const r = await api("GET", "/api/games/" + G.id + "/sight?element=" + encodeURIComponent(label) + at);
  if (r.status === 200) { G.sight[label] = r.data.sees; if (G.sel.elements[0] === label) render(); }
}

function clickElement(label) {
  const v = G.view;
  fetchSight(label);
  const sel = G.sel.elements[0];
  if (sel && sel !== label) {
    // own element selected, clicking another: a target (shoot, fire...) or a switch
    const targeted = v.actions.filter(a => a.elements[0] === sel && a.elements.includes(label));
    if (targeted.length) {
      G.sel.elements = [sel, label];
      afterClick();
      return;
    }
  }
  if (!v.actions.some(a => a.elements.includes(label))) {
    G.sel.elements = [label]; G.chosen = null; G.odds = null; G.point = null;
    render();
    return;
  }
  G.sel.elements = sel === label ? [] : [label];
  G.point = null;
  afterClick();
}

// ------------------------------------------------------------------ routing
const route = location.pathname.match(/^\/g\/([A-Za-z0-9_\-]+)$/);
if (route) gamePage(route[1]); else lobby();
