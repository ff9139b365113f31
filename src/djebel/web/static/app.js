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
  const $seed = el("input", { type: "number", id: "new-seed", placeholder: "secret", min: 0 });
  const $analysis = el("input", { type: "checkbox", id: "new-analysis" });
  const $title = el("input", { type: "text", id: "new-title", placeholder: "a name for the game" });

  function refresh() {
    const g = $game.value;
    $scn.replaceChildren(...meta[g].map(x => el("option", { value: x }, x)));
    if (g === "algeria") $scn.value = "1958";
    $opts.replaceChildren();
    if (g === "algeria") {
      for (const o of meta.algeria_options) {
        $opts.append(el("label", { class: "plain" },
          el("input", { type: "checkbox", value: o, class: "opt" }), " " + o.replaceAll("_", " ")));
      }
    }
    $seats.replaceChildren();
    for (const side of sides[g]) {
      const sel = el("select", { id: "seat-" + side, "data-side": side },
        el("option", { value: "human" }, "human"),
        ...meta.bots[g].map(b => el("option", { value: b }, "bot: " + b)));
      // The default opponent: the strongest bot of the game (Algeria's planner).
      if (side === sides[g][1]) sel.value = ["planner", "heuristic"].find(b => meta.bots[g].includes(b)) || meta.bots[g][0];
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
    if ($analysis.checked) body.analysis = true;
    const r = await api("POST", "/api/games", body);
    showCreated(r, out);
  }
  form.append(el("h2", {}, "New game"),
    el("label", {}, "Game"), $game, el("label", {}, "Scenario"), $scn, $opts,
    el("label", {}, "Seats (a human seat gets a secret link)"), $seats,
    el("label", {}, "Seed of the dice (leave it empty: nobody can foresee the dice)"), $seed,
    el("label", { class: "plain" }, $analysis, " analysis: free take-backs (undo past die rolls)"),
    el("label", {}, "Title"), $title,
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
  Days.keepCreated(r.data.id, r.data.seats);
  const rows = [el("p", { class: "small" }, "Hand each player their seat link; it is the only key to that side. ",
    "This browser keeps them in ", el("a", { href: "/my", id: "my-link-created" }, "My games"), ".")];
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
  // the seat link's secret leaves the address bar (history, screen shares, copied URLs)
  if (/seat=/.test(location.hash)) history.replaceState(null, "", location.pathname + location.search);
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
  if (G.view && G.view.ply !== v.ply) { G.sel = { units: [], areas: [], elements: [], boxes: [] }; G.chosen = null; G.odds = null; G.point = null; G.detail = null; G.detailPinned = false; }
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
  ws.onopen = () => { $conn.className = "conn on"; $conn.textContent = "live"; G.wsWait = 0; };
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (Days.onLive(m)) return;
    if (G.at === null && G.view && m.ply !== G.view.ply) load();
  };
  ws.onclose = (ev) => {
    $conn.className = "conn off";
    // 1008 (policy) or 4xxx: the server refused this game's feed; asking again gets the same
    if (ev.code === 1008 || (ev.code >= 4000 && ev.code < 5000)) { $conn.textContent = "not live: " + (ev.reason || "refused"); return; }
    $conn.textContent = "reconnecting";
    G.wsWait = Math.min(30000, (G.wsWait || 750) * 2);       // 1.5 s, 3 s, ... at most 30 s
    setTimeout(connect, G.wsWait);
  };
  if (!G.pinger) G.pinger = setInterval(() => { if (G.ws && G.ws.readyState === 1) G.ws.send("ping"); }, 25000);
}

// The page's frame is made once: what is typed in the chat or the notepad under the log
// survives the renders that follow the other side's moves.
function shell() {
  if (!G.shell) {
    const col = el("div", { class: "boardcol" });
    const live = el("div", { class: "side-live" });
    G.shell = { col, live, root: el("div", { class: "game" }, col, el("div", { class: "side" }, live, Days.panels())) };
  }
  return G.shell;
}

function render() {
  const v = G.view;
  const board = el("div", { class: "boardwrap", id: "board" });
  board.append(v.game === "algeria" ? drawAlgeria(v) : drawSkirmish(v));
  const below = v.game === "algeria" ? offMapPanel(v) : tablePanels(v);
  const frame = shell();
  frame.col.replaceChildren(Zoom.toolbar(), board, below);
  frame.live.replaceChildren(statusPanel(v), actionPanel(v), logPanel(v));
  if (!frame.root.isConnected) $main.replaceChildren(frame.root);
  Days.afterRender(v);
  if (v.game === "algeria" && G.detail) drawDetail();
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
  const undo = v.undo && G.at === null && v.mode !== "replay" && !v.over
    ? el("button", { id: "undo", disabled: !v.undo.allowed, title: v.undo.reason || "take back your last action",
      onclick: undoLast }, v.analysis ? "Undo (analysis)" : "Undo") : null;
  p.append(el("div", {}, undo, el("a", { href: "/api/games/" + v.id + "/record", download: "", id: "download" },
    el("button", {}, "Download record")), el("a", { href: "/" }, el("button", {}, "Lobby"))));
  p.append(History.seatControls(v));
  return p;
}

// Take back this seat's last action (the server refuses past a die roll or the other
// side's last action, saying why, unless the game is for analysis).
async function undoLast() {
  const v = G.view;
  const r = await api("POST", "/api/games/" + G.id + "/undo", { side: v.you, ply: v.ply }, G.token);
  if (r.status === 200) {
    G.error = null; clearSel();
    if (r.data.game === "algeria") expandUnits(r.data.board);
    G.view = r.data; render();
  } else {
    G.error = (r.data && r.data.error) || ("error " + r.status); await load();
  }
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
      onclick: () => choose(a.text) }, a.label || a.text));
  }
  p.append(box);
  p.append(History.setting());
  if (G.chosen) {
    const c = el("div", { class: "choice", id: "choice" }, el("div", {}, "Chosen: ", el("code", {}, G.chosen)));
    if (G.odds) {
      // one line per case (each choice the opponent may make next is its own clause)
      const parts = G.odds.split("; ");
      c.append(el("div", { class: "odds", id: "odds" },
        ...parts.map((t, i) => el("div", { class: "odds-case" }, i < parts.length - 1 ? t + ";" : t))));
    }
    c.append(el("button", { class: "primary", id: "confirm", onclick: confirm }, "Confirm"),
      el("button", { onclick: () => { G.chosen = null; G.odds = null; G.point = null; render(); } }, "Cancel"));
    p.append(c);
  }
  return p;
}

function clearSel() { G.sel = { units: [], areas: [], elements: [], boxes: [] }; G.chosen = null; G.odds = null; G.point = null; G.detail = null; G.detailPinned = false; }

async function choose(text) {
  // a decision with one legal action is played at once (a setting, on by default),
  // unless it rolls dice: then its odds are shown and it waits for Confirm, as any other
  const single = G.view && G.view.actions.length === 1 && History.singleWithoutConfirm();
  G.chosen = text; G.odds = null; G.error = null;
  if (!single) render();
  const r = await api("GET", "/api/games/" + G.id + "/odds?action=" + encodeURIComponent(text));
  if (G.chosen !== text) return;
  if (r.status === 200 && r.data.odds) { G.odds = r.data.odds; render(); }
  else if (single) await confirm();
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

function logPanel(v) { return History.panel(v); }

// ------------------------------------------------------------------ routing
const route = location.pathname.match(/^\/g\/([A-Za-z0-9_\-]+)$/);
if (route) gamePage(route[1]); else if (location.pathname === "/my") Days.myGames(); else lobby();
