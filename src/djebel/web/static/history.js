// djebel web client: the whole log (paged from /api/games/{id}/log) with turn, phase and
// side headers, dice coloured by side, every unit, area and element named in it linked to
// the board; "view turn N" over the past views; Resign, Rematch and the setting that plays
// a decision's only legal action without Confirm. Uses el(), api(), G, load(), render().
"use strict";

const History = (() => {
  const PAGE = 200;
  const H = { id: null, from: null, entries: [], total: 0, turns: [], ply: -1, busy: false };

  // ---------------------------------------------------------------- the log
  async function refresh(v) {
    if (H.busy) return;
    H.busy = true;
    try {
      if (H.id !== v.id) { H.id = v.id; H.from = null; H.entries = []; H.ply = -1; }
      const q = H.from === null ? "limit=" + PAGE : "offset=" + H.from + "&limit=500";
      const r = await api("GET", "/api/games/" + v.id + "/log?" + q);
      if (r.status !== 200) return;
      H.entries = r.data.entries; H.total = r.data.total; H.turns = r.data.turns;
      H.from = r.data.offset; H.ply = stamp(v);
      fill();
    } finally { H.busy = false; }
  }

  async function earlier() {
    H.from = Math.max(0, (H.from || 0) - PAGE);
    H.ply = -1;
    await refresh(G.view);
  }

  function names(v) {
    if (v.game === "algeria") {
      return { units: new Set(Object.keys(v.board.units)), areas: new Set(v.board.areas.map(a => a.id)), elements: new Set() };
    }
    return { units: new Set(), areas: new Set(), elements: new Set(v.board.elements.map(e => e.label)) };
  }

  // The words of an entry, those naming a unit, an area or an element made links.
  function linked(text, known) {
    const out = [];
    let last = 0;
    for (const m of text.matchAll(/[A-Za-z0-9_][A-Za-z0-9_\-]*/g)) {
      const w = m[0];
      let kind = null, key = w;
      if (known.units.has(w)) kind = "unit";
      else if (known.areas.has(w.toUpperCase()) && /[A-Z0-9]/.test(w[0])) { kind = "area"; key = w.toUpperCase(); }
      else if (known.elements.has(w)) kind = "element";
      if (!kind) continue;
      if (m.index > last) out.push(text.slice(last, m.index));
      out.push(el("a", { class: "ref ref-" + kind, href: "#", "data-ref": kind, "data-key": key }, w));
      last = m.index + w.length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }

  // what the log depends on: the actions played, and a resignation (which plays none)
  function stamp(v) { return v.total + (v.over ? "/over" : ""); }

  function panel(v) {
    const p = el("div", { class: "panel", id: "log-panel" });
    if (H.id === v.id) fillInto(p, v);
    if (H.id !== v.id || H.ply !== stamp(v)) setTimeout(() => refresh(v), 0);
    return p;
  }

  function fill() {
    const p = document.getElementById("log-panel");
    if (p && G.view) { p.replaceChildren(); fillInto(p, G.view); }
  }

  function fillInto(p, v) {
    const known = names(v);
    const head = el("div", { class: "log-head" }, el("b", {}, "Log"), " ",
      el("span", { class: "small", id: "log-count" }, H.total + " entries"));
    if (H.turns.length > 1 && v.mode !== "replay") {
      const sel = el("select", { id: "view-turn", title: "show the board as it was at the start of a turn" },
        el("option", { value: "" }, G.at === null ? "view turn..." : "viewing the past"),
        ...H.turns.map(t => el("option", { value: t.ply }, t.turn === 0 ? "set-up" : "turn " + t.turn)));
      sel.onchange = () => { if (sel.value === "") return; G.at = parseInt(sel.value, 10); load(); };
      head.append(" ", sel);
    }
    if (G.at !== null && v.mode !== "replay") {
      head.append(" ", el("button", { id: "back-live", onclick: () => { G.at = null; load(); } }, "back to live"));
    }
    p.append(head);
    const box = el("div", { class: "log", id: "log" });
    if (H.from > 0) box.append(el("button", { id: "log-earlier", class: "small", onclick: earlier }, "earlier entries (" + H.from + ")"));
    let stage = null, actor = null;
    for (const e of H.entries) {
      const st = e.turn + "|" + e.phase;
      if (st !== stage) {
        stage = st; actor = null;
        box.append(el("div", { class: "log-turn", "data-turn": e.turn }, (e.turn === 0 ? "Set-up" : "Turn " + e.turn) + " \u2014 " + e.phase));
      }
      if (e.actor !== actor) {
        actor = e.actor;
        if (actor) box.append(el("div", { class: "log-side " + actor }, sideBadge(actor)));
      }
      const who = e.side || e.actor;
      const row = el("div", { class: "log-entry" + (G.at !== null && e.ply > G.at ? " later" : ""), "data-n": e.n, "data-ply": e.ply },
        e.rule ? el("span", { class: "rule" }, "(" + e.rule + ") ") : null, ...linked(e.text, known), " ",
        ...(e.dice || []).map(d => el("span", { class: "die " + (who || "none") }, d)));
      box.append(row);
    }
    box.addEventListener("mouseover", (ev) => { const a = ev.target.closest("a.ref"); if (a) highlight(a.dataset.ref, a.dataset.key, true); });
    box.addEventListener("mouseout", (ev) => { const a = ev.target.closest("a.ref"); if (a) highlight(a.dataset.ref, a.dataset.key, false); });
    box.addEventListener("click", (ev) => {
      const a = ev.target.closest("a.ref");
      if (!a) return;
      ev.preventDefault();
      show(a.dataset.ref, a.dataset.key);
    });
    p.append(box);
    // live: the newest entries; a past view: the last entry written by then
    setTimeout(() => {
      const past = G.at !== null ? [...box.querySelectorAll(".log-entry:not(.later)")].pop() : null;
      if (past) box.scrollTop = past.offsetTop - box.offsetTop - box.clientHeight + past.offsetHeight + 4;
      else box.scrollTop = box.scrollHeight;
    }, 0);
  }

  // ---------------------------------------------------------------- links to the board
  function areaOf(v, unit) {
    for (const a of v.board.areas) for (const names of Object.values(a.boxes)) if (names.includes(unit)) return a.id;
    return null;
  }

  function targets(kind, key) {
    const board = document.getElementById("board");
    if (!board) return [];
    const attr = kind === "unit" ? "data-unit" : kind === "area" ? "data-area" : "data-element";
    let found = [...board.querySelectorAll(`[${attr}="${CSS.escape(key)}"]`)];
    if (kind === "unit" && !found.length && G.view.game === "algeria") {
      const a = areaOf(G.view, key);     // a unit under a stack's top: its area
      if (a) found = [...board.querySelectorAll(`g.area-node[data-area="${CSS.escape(a)}"]`)];
    }
    if (!found.length) {
      const off = document.querySelectorAll(`#offmap [${attr}="${CSS.escape(key)}"], #roster [${attr}="${CSS.escape(key)}"]`);
      found = [...off];
    }
    if (kind === "unit" && !found.length && G.view.game === "algeria") {
      // off the map (the pool, eliminated): the pool's counter of its type stands for it
      const us = G.view.board.units, u = us[key];
      found = [...document.querySelectorAll("#offmap g.counter")].filter(g => {
        const o = us[g.dataset.unit];
        return o && u && o.type === u.type && o.neut === u.neut;
      });
    }
    return found;
  }

  function highlight(kind, key, on) {
    for (const t of targets(kind, key)) t.classList.toggle("log-hl", on);
  }

  function show(kind, key) {
    const v = G.view;
    if (v.game === "algeria") {
      const area = kind === "area" ? key : areaOf(v, key);
      if (area && typeof openDetail === "function") openDetail(area, true);
    }
    for (const t of document.querySelectorAll(".log-pick")) t.classList.remove("log-pick");
    const ts = targets(kind, key);
    for (const t of ts) t.classList.add("log-pick");
    if (ts[0] && ts[0].scrollIntoView) ts[0].scrollIntoView({ block: "nearest", inline: "nearest" });
    G.logPick = { kind, key };
  }

  // ---------------------------------------------------------------- resign, rematch
  function seatControls(v) {
    const box = el("div", { class: "seat-controls", id: "seat-controls" });
    if (v.you && !v.over && v.mode === "play" && G.at === null) {
      box.append(el("button", { id: "resign", onclick: () => askResign(box, v) }, "Resign"));
    }
    if (v.over && v.mode === "play" && (v.you || Object.keys(G.tokens || {}).length)) {
      if (v.rematch) box.append(rematchLink(v.rematch));
      else box.append(el("button", { id: "rematch", onclick: () => rematch(v) }, "Rematch, sides swapped"));
    }
    if (v.rematch_of) box.append(el("span", { class: "small" }, " rematch of ", el("a", { href: "/g/" + v.rematch_of }, "#" + v.rematch_of)));
    box.append(" ", el("a", { href: "/charts", target: "_blank", id: "charts-link" }, "Charts and rules notes"));
    return box;
  }

  function askResign(box, v) {
    if (document.getElementById("resign-confirm")) return;
    const d = el("div", { class: "confirm-box", id: "resign-confirm", role: "alertdialog" },
      el("div", {}, "Resign the game? " + (v.you || "").toUpperCase() + " loses and the other side wins. This cannot be undone."),
      el("button", { class: "primary", id: "resign-yes", onclick: () => resign(v) }, "Resign"),
      el("button", { id: "resign-no", onclick: () => d.remove() }, "Keep playing"));
    box.append(d);
  }

  async function resign(v) {
    const r = await api("POST", "/api/games/" + v.id + "/resign", { side: v.you }, G.token);
    G.error = r.status === 200 ? null : ((r.data && r.data.error) || ("error " + r.status));
    await load();
  }

  async function rematch(v) {
    const side = v.you || Object.keys(G.tokens)[0];
    const r = await api("POST", "/api/games/" + v.id + "/rematch", { side }, G.tokens[side] || G.token);
    if (r.status !== 200) { G.error = (r.data && r.data.error) || ("error " + r.status); render(); return; }
    await load();
  }

  // The player's own tokens open the rematch: the same links play the other sides there.
  function rematchLink(id) {
    const toks = Object.values(G.tokens || {});
    const href = "/g/" + id + (toks.length ? "#" + toks.map(t => "seat=" + t).join("&") : "");
    return el("a", { href, id: "rematch-link", class: "rematch-link" }, "Play the rematch (sides swapped)");
  }

  // ---------------------------------------------------------------- the single-action setting
  const KEY = "djebel-single-without-confirm";
  function singleWithoutConfirm() { return localStorage.getItem(KEY) !== "0"; }
  function setting() {
    const box = el("input", { type: "checkbox", id: "single-auto" });
    box.checked = singleWithoutConfirm();
    box.onchange = () => localStorage.setItem(KEY, box.checked ? "1" : "0");
    return el("label", { class: "small setting" }, box, " a decision with one legal action needs no Confirm");
  }

  return { panel, seatControls, setting, singleWithoutConfirm, refresh };
})();
