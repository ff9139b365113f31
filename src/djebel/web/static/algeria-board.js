// The Algeria board: the map with every area drawn at its town, labelled with its name and
// code, its stacks of counters (APP-6 symbols) beside it; the UG/OPS/OC/PTL detail of an
// area opens on hover or click; tracks, units available and eliminated below the map.
"use strict";

const TILE_W = 46, TILE_H = 50, LABEL_H = 17, BADGE_W = 18, WILAYA_DY = 40;
const FONT = "DejaVu Sans, Segoe UI, Helvetica, Arial, sans-serif";
const BOXES = ["UG", "OPS", "OC", "PTL"];
const RATING_NAME = { urban: "Urban", rural: "Rural", remote: "Remote", country: "" };
const CONTROL_COLOUR = { fln: "#a32020", gov: "#1f4e9c", "": "#6b5a3c" };

let textCanvas = null;
function textWidth(t, weight) {
  textCanvas = textCanvas || document.createElement("canvas").getContext("2d");
  textCanvas.font = `${weight || "normal"} 12px ${FONT}`;
  return textCanvas.measureText(t).width;
}

function unitsIn(st) { return BOXES.flatMap(bx => st.boxes[bx] || []); }

// Node sizes depend only on the label, so the layout never moves during a game.
function nodeSize(name, code) {
  const one = textWidth(name, "bold") + 6 + textWidth(code) + 10;
  const row = 2 * TILE_W + BADGE_W + 4;
  if (one <= Math.max(row, 150)) return { w: Math.max(row, one), h: LABEL_H + TILE_H + 4, lines: 1 };
  const two = Math.max(textWidth(name, "bold"), textWidth(code)) + 10;
  return { w: Math.max(row, two), h: 2 * LABEL_H + TILE_H + 4, lines: 2 };
}

// Nodes near their towns, none overlapping another or the map's edge: overlapping nodes
// are pushed apart while a pull towards the town fades out.
function layoutNodes(m) {
  const W = m.width, H = m.height;
  const nodes = {};
  const anchor = (id) => id === "FRANCE" ? [90, 40] : m.areas[id].town;
  const ids = [...Object.keys(m.areas), "FRANCE"];
  for (const id of ids) {
    const name = id === "FRANCE" ? "France" : m.areas[id].name;
    const sz = nodeSize(name, id);
    const [tx, ty] = anchor(id);
    nodes[id] = Object.assign(sz, { id, name, x: tx - sz.w / 2, y: ty + 8, tx, ty });
  }
  const fixed = new Set(["FRANCE"]);
  nodes.FRANCE.x = 8; nodes.FRANCE.y = 8;
  const list = ids.map(id => nodes[id]);
  // the wilaya names stay where they are: the nodes keep clear of them
  for (const [w, info] of Object.entries(m.wilayas)) {
    const tw = textWidth("W" + w, "bold") * 2.5;
    const ob = { id: "W" + w, x: info.label[0] - tw / 2 - 2, y: info.label[1] + WILAYA_DY - 26, w: tw + 4, h: 32, wilaya: true };
    fixed.add(ob.id);
    list.push(ob);
  }
  const gap = 8, rounds = 900;
  for (let step = 0; step < rounds; step++) {
    let moved = false;
    for (let i = 0; i < list.length; i++) {
      for (let j = i + 1; j < list.length; j++) {
        const a = list[i], b = list[j];
        const dx = (b.x + b.w / 2) - (a.x + a.w / 2), dy = (b.y + b.h / 2) - (a.y + a.h / 2);
        const ox = (a.w + b.w) / 2 + gap - Math.abs(dx), oy = (a.h + b.h) / 2 + gap - Math.abs(dy);
        if (ox <= 0 || oy <= 0) continue;
        moved = true;
        const horiz = ox / (a.w + b.w) < oy / (a.h + b.h);
        const push = (horiz ? ox : oy) / 2 + 0.5, sign = (horiz ? dx : dy) >= 0 ? 1 : -1;
        const ka = fixed.has(b.id) ? 2 : 1, kb = fixed.has(a.id) ? 2 : 1;
        if (!fixed.has(a.id)) { if (horiz) a.x -= sign * push * ka; else a.y -= sign * push * ka; }
        if (!fixed.has(b.id)) { if (horiz) b.x += sign * push * kb; else b.y += sign * push * kb; }
      }
    }
    const pull = 0.06 * Math.max(0, 1 - step / (rounds * 0.6));
    for (const n of list) {
      if (fixed.has(n.id)) continue;
      n.x += (n.tx - n.w / 2 - n.x) * pull;
      n.y += (n.ty + 8 - n.y) * pull;
      n.x = Math.min(Math.max(n.x, 4), W - n.w - 4);
      n.y = Math.min(Math.max(n.y, 4), H - n.h - 4);
    }
    if (!moved && pull === 0) break;
  }
  for (const n of list) { n.x = Math.round(n.x); n.y = Math.round(n.y); }
  clearTowns(list, ids.filter(id => id !== "FRANCE").map(id => [id, ...anchor(id)]), W, H);
  return nodes;
}

// A node lying over another area's town moves, if a small step frees the town without
// meeting another node, a wilaya's name or the map's edge (else it stays).
function clearTowns(list, towns, W, H) {
  const meet = (a, b, gap) => a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
  const covers = (n, x, y) => towns.some(([, tx, ty]) => tx > x - 6 && tx < x + n.w + 6 && ty > y - 6 && ty < y + n.h + 6);
  const steps = [];
  for (let dx = -96; dx <= 96; dx += 4) for (let dy = -96; dy <= 96; dy += 4) steps.push([dx, dy]);
  steps.sort((p, q) => Math.hypot(...p) - Math.hypot(...q));
  for (let pass = 0; pass < 4; pass++) for (const n of list) {
    if (n.wilaya || n.town || n.id === "FRANCE" || !covers(n, n.x, n.y)) continue;
    for (const [dx, dy] of steps) {
      const c = { x: n.x + dx, y: n.y + dy, w: n.w, h: n.h };
      if (c.x < 4 || c.y < 4 || c.x + c.w > W - 4 || c.y + c.h > H - 4 || covers(n, c.x, c.y)) continue;
      if (list.some(o => o !== n && !o.town && meet(c, o, o.wilaya ? 0 : 3))) continue;
      n.x = c.x; n.y = c.y;
      break;
    }
  }
}

function expandUnits(b) {
  const out = {};
  for (const [name, [type, firepower, rating, marks]] of Object.entries(b.units)) {
    const ty = b.types[type];
    out[name] = { type, firepower, rating, side: ty.side, name: ty.name, elite: ty.elite, static: ty.static,
      symbol: ty.symbol, neut: !!(marks & 1), airmobile: !!(marks & 2), dispersed: !!(marks & 4) };
  }
  b.units = out;
}

function ratings(u) { return u.static ? String(u.firepower) : `${u.firepower}-${u.rating}`; }

function unitTitle(name, u) {
  const flags = [u.neut ? "neutralized" : "", u.airmobile ? "airmobile" : "", u.dispersed ? "dispersed" : ""].filter(Boolean).join(", ");
  return `${name}: ${u.name}, firepower ${u.firepower}, ${u.side === "gov" ? "contact" : "evasion"} ${u.rating}${flags ? " (" + flags + ")" : ""}`;
}

// One counter: the APP-6 symbol, its ratings under it, a count when it tops a stack.
function counterTile(v, name, x, y, hotUnits, count) {
  const u = v.board.units[name];
  const picked = G.sel.units.includes(name), hot = hotUnits.has(name);
  const g = s("g", { class: "counter clickable", "data-unit": name, transform: `translate(${x},${y})`,
    onclick: (ev) => { ev.stopPropagation(); clickUnit(name); } });
  g.append(s("rect", { x: 0, y: 0, width: TILE_W - 2, height: TILE_H - 2, rx: 3, fill: u.side === "gov" ? "#eef6fb" : "#fbefec",
    stroke: picked ? "#ff3300" : hot ? "#e0a800" : "#8a7b5a", "stroke-width": picked || hot ? 2.5 : 0.8, class: "tile",
    title: unitTitle(name, u) + (count > 1 ? ` (top of a stack of ${count}: hover or click the area for all)` : "") }));
  const sym = APP6.symbol(u.symbol, u.side, { neutralized: u.neut, airmobile: u.airmobile, dispersed: u.dispersed }, 0.9);
  const sg = s("g", { transform: `translate(${count > 1 ? 17 : 22},23)` });
  sg.append(sym);
  g.append(sg);
  g.append(s("text", { x: count > 1 ? 17 : 22, y: TILE_H - 5, "font-size": 12, "font-weight": "bold", "text-anchor": "middle", fill: "#111", class: "ratings" }, ratings(u)));
  if (count > 1) {
    // the stack's size in a badge at the top right corner, clear of the symbol
    const bw = count > 9 ? 19 : 13;
    g.append(s("rect", { x: TILE_W - 3 - bw, y: 1, width: bw, height: 15, rx: 3, fill: "#3b3024", class: "stack-badge" }));
    g.append(s("text", { x: TILE_W - 3 - bw / 2, y: 13, "font-size": 12, "font-weight": "bold", "text-anchor": "middle", fill: "#fff", class: "stack-count" }, count));
  }
  return g;
}

// The unit shown on top of a side's stack: the strongest, a hot one first.
function stackTop(v, names, hotUnits) {
  const us = v.board.units;
  return [...names].sort((a, c) => (hotUnits.has(c) - hotUnits.has(a)) || (us[c].firepower - us[a].firepower) || a.localeCompare(c))[0];
}

function drawAlgeria(v) {
  const m = G.map, b = v.board;
  if (!G.nodes) G.nodes = layoutNodes(m);
  const W = m.width, H = m.height;
  const svg = s("svg", { id: "algeria-board", "font-family": FONT, "data-width": W, "data-height": H });
  const pts = (ring) => ring.map(p => p.join(",")).join(" ");
  const acts = matching(v);
  const hotUnits = new Set(acts.flatMap(a => a.units));
  const hotAreas = new Set(acts.flatMap(a => a.areas));
  const areaById = Object.fromEntries(b.areas.map(a => [a.id, a]));
  svg.append(s("defs", {},
    s("pattern", { id: "hatch-fln", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { width: 8, height: 8, fill: "#a32020", opacity: 0.08 }), s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#a32020", "stroke-width": 3, opacity: 0.25 })),
    s("pattern", { id: "hatch-gov", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(-45)" },
      s("rect", { width: 8, height: 8, fill: "#1f4e9c", opacity: 0.08 }), s("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#1f4e9c", "stroke-width": 3, opacity: 0.25 }))));
  svg.append(s("rect", { x: 0, y: 0, width: W, height: H, fill: "#bcd3df", class: "sea" }));
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
        onclick: () => { clickArea(id); }, title: `${a.name} (${id})` }));
    }
  }
  for (const info of Object.values(m.wilayas)) {
    for (const ring of info.rings) svg.append(s("polygon", { points: pts(ring), fill: "none", stroke: "#7a4a24", "stroke-width": 2, "stroke-dasharray": "9,3,2,3", "pointer-events": "none" }));
  }
  svg.append(s("text", { x: W * 0.5, y: 30, "font-size": 18, fill: "#6d8fa3", "font-style": "italic", "letter-spacing": 6, class: "map-name" }, "MEDITERRANEAN SEA"));
  svg.append(s("text", { x: W * 0.55, y: H - 16, "font-size": 18, fill: "#b59d6e", "letter-spacing": 10, "font-style": "italic", class: "map-name" }, "S A H A R A"));
  for (const [w, info] of Object.entries(m.wilayas)) {
    svg.append(s("text", { x: info.label[0], y: info.label[1] + WILAYA_DY, "font-size": 30, "data-wilaya": w, "font-weight": "bold", fill: "#7a4a24", opacity: 0.3, "text-anchor": "middle", class: "map-name" }, "W" + w));
  }
  // towns and the lines to their nodes
  for (const n of Object.values(G.nodes)) {
    if (n.id === "FRANCE") continue;
    const cx = Math.max(n.x, Math.min(n.tx, n.x + n.w)), cy = Math.max(n.y, Math.min(n.ty, n.y + n.h));
    svg.append(s("line", { x1: n.tx, y1: n.ty, x2: cx, y2: cy, stroke: "#3b3024", "stroke-width": 1.2, opacity: 0.75, "pointer-events": "none" }));
    svg.append(s("circle", { cx: n.tx, cy: n.ty, r: 4, fill: "#3b3024", stroke: "#fff", "stroke-width": 1, "pointer-events": "none", class: "town", "data-area": n.id }));
  }
  for (const n of Object.values(G.nodes)) svg.append(areaNode(v, n, areaById[n.id], hotUnits, hotAreas));
  Zoom.attach(svg, "algeria", [0, 0, W, H]);
  svg.addEventListener("zoomed", () => hideDetail());
  return svg;
}

function areaNode(v, n, st, hotUnits, hotAreas) {
  const g = s("g", { class: "area-node", "data-area": n.id, transform: `translate(${n.x},${n.y})` });
  const picked = G.sel.areas.includes(n.id), hot = hotAreas.has(n.id);
  const info = G.map.areas[n.id] || { wilaya: "", name: "France" };
  const title = `${n.name} (${n.id})${info.wilaya ? ", wilaya " + info.wilaya : ""}${st.rating && RATING_NAME[st.rating] ? ", " + RATING_NAME[st.rating] : ""}`
    + (st.control ? ", " + st.control.toUpperCase() + " control" : "") + (st.terror ? ", terror" : "") + (st.resettled ? ", resettled" : "");
  // an area with no counter keeps its place on the map but covers only its label; the
  // rest of a node is a faint frame the map shows through (its borders, towns, names)
  const empty = !unitsIn(st).length && !st.terror && !st.resettled;
  const marked = picked || hot || st.control;
  g.append(s("rect", { x: 0, y: 0, width: n.w, height: empty ? LABEL_H * n.lines + 1 : n.h, rx: 4, fill: "#fffdf6", "fill-opacity": 0.2,
    stroke: picked ? "#ff3300" : hot ? "#e0a800" : CONTROL_COLOUR[st.control || ""], "stroke-width": picked || hot ? 3 : st.control ? 2 : 1,
    "stroke-opacity": marked ? 1 : 0.45,
    class: "clickable node-bg", onclick: () => { openDetail(n.id, true); clickArea(n.id); }, title }));
  const lab = s("g", { class: "area-label clickable", "data-area": n.id, onclick: () => { openDetail(n.id, true); clickArea(n.id); } });
  lab.append(s("rect", { x: 1, y: 1, width: n.w - 2, height: LABEL_H * n.lines - 1, rx: 3, fill: st.control === "fln" ? "#f6dede" : st.control === "gov" ? "#dde6f4" : "#efe6d2", class: "label-bg" }));
  lab.append(s("text", { x: 5, y: 13, "font-size": 12, "font-weight": "bold", fill: "#2b2117", class: "area-name" }, n.name));
  const codeAt = n.lines === 1 ? [n.w - 5, 13, "end"] : [5, 13 + LABEL_H, "start"];
  lab.append(s("text", { x: codeAt[0], y: codeAt[1], "font-size": 12, fill: "#5a4a32", "text-anchor": codeAt[2], class: "area-code" }, n.id));
  g.append(lab);
  const top = LABEL_H * n.lines + 1;
  const units = unitsIn(st);
  ["gov", "fln"].forEach((side, i) => {
    const mine = units.filter(u => v.board.units[u].side === side);
    if (!mine.length) return;
    const name = stackTop(v, mine, hotUnits);
    const tile = counterTile(v, name, 2 + i * TILE_W, top + 1, mine.some(u => hotUnits.has(u)) ? new Set([name]) : new Set(), mine.length);
    tile.classList.add("stack");
    tile.setAttribute("data-side", side);
    g.append(tile);
  });
  // markers: terror and resettlement
  let my = top + 2;
  const marker = (txt, fill, what) => {
    g.append(s("rect", { x: n.w - BADGE_W - 1, y: my, width: BADGE_W - 2, height: 17, rx: 3, fill, title: what, class: "marker" }));
    g.append(s("text", { x: n.w - BADGE_W / 2 - 2, y: my + 13, "font-size": 12, "font-weight": "bold", fill: "#fff", "text-anchor": "middle" }, txt));
    my += 20;
  };
  if (st.terror) marker("T", "#b01818", "Terror marker");
  if (st.resettled) marker("R", "#6b4a1a", "Resettled");
  g.addEventListener("mouseenter", (ev) => { if (!ev.buttons) openDetail(n.id, false); });   // not while dragging
  g.addEventListener("mouseleave", () => scheduleHide());
  return g;
}

// ---------- the detail of an area: its four boxes with every counter
let hideTimer = null;
function scheduleHide() {
  clearTimeout(hideTimer);
  hideTimer = setTimeout(() => { if (!G.detailPinned) hideDetail(); }, 350);
}
function hideDetail() {
  clearTimeout(hideTimer);
  const d = document.getElementById("area-detail");
  if (d) d.remove();
  if (!G.detailPinned) G.detail = null;
}

function openDetail(id, pin) {
  clearTimeout(hideTimer);
  if (pin) G.detailPinned = true;
  else if (G.detailPinned && G.detail !== id) return;
  G.detail = id;
  drawDetail();
}

function drawDetail() {
  const old = document.getElementById("area-detail");
  if (old) old.remove();
  const v = G.view, id = G.detail, wrap = document.getElementById("board");
  if (!v || v.game !== "algeria" || !id || !wrap) return;
  const node = wrap.querySelector(`g.area-node[data-area="${id}"]`);
  const st = v.board.areas.find(a => a.id === id);
  if (!node || !st) return;
  const n = G.nodes[id];
  const info = G.map.areas[id] || { wilaya: "" };
  const acts = matching(v);
  const hotUnits = new Set(acts.flatMap(a => a.units));
  const boxActs = acts.filter(a => a.boxes.length && (a.areas.includes(id) || (!a.areas.length && (a.units.some(u => unitsIn(st).includes(u)) || selectedUnitIn(v, st)))));
  const hotBoxes = new Set(boxActs.flatMap(a => a.boxes));
  const d = el("div", { class: "area-detail", id: "area-detail", "data-area": id });
  d.addEventListener("mouseenter", () => clearTimeout(hideTimer));
  d.addEventListener("mouseleave", () => scheduleHide());
  const facts = [info.wilaya ? "wilaya " + info.wilaya : "", RATING_NAME[st.rating] || "", st.control ? st.control.toUpperCase() + " control" : (id === "FRANCE" ? "" : "contested"),
    st.terror ? "terror" : "", st.resettled ? "resettled" : ""].filter(Boolean).join(" \u00b7 ");
  d.append(el("div", { class: "detail-head" }, el("b", {}, `${n.name} (${id})`), " ", el("span", { class: "small" }, facts),
    el("button", { class: "detail-close", id: "detail-close", title: "close", onclick: () => { G.detailPinned = false; hideDetail(); } }, "\u00d7")));
  for (const bx of BOXES) {
    const names = st.boxes[bx] || [];
    const row = el("div", { class: "box-row" + (hotBoxes.has(bx) ? " hot" : ""), "data-box": bx, title: `${bx} box of ${n.name}`,
      onclick: () => clickBox(id, bx) });
    row.append(el("span", { class: "box-name" }, bx));
    const per = Math.max(1, Math.floor(460 / TILE_W));
    const rowsN = Math.max(1, Math.ceil(names.length / per));
    const svg = s("svg", { width: Math.min(names.length, per) * TILE_W + 2, height: rowsN * TILE_H + 2, class: "box-counters", "font-family": FONT });
    names.forEach((u, k) => svg.append(counterTile(v, u, 1 + (k % per) * TILE_W, 1 + Math.floor(k / per) * TILE_H, hotUnits, 1)));
    row.append(names.length ? svg : el("span", { class: "small" }, "empty"));
    d.append(row);
  }
  wrap.append(d);
  // beside the node, inside the board
  const r = node.getBoundingClientRect(), wr = wrap.getBoundingClientRect();
  const dw = d.offsetWidth, dh = d.offsetHeight;
  let left = r.right - wr.left + 6;
  if (left + dw > wr.width) left = r.left - wr.left - dw - 6;
  left = Math.max(0, left);
  let top = Math.min(Math.max(0, r.top - wr.top), Math.max(0, wr.height - dh));
  d.style.left = left + "px";
  d.style.top = top + "px";
}

function selectedUnitIn(v, st) {
  // the unit the pending decision is about (named in the prompt) is in this area
  return unitsIn(st).some(u => new RegExp("\\b" + u + "\\b").test(v.prompt));
}

function clickUnit(name) {
  const v = G.view;
  if (!v.actions.some(a => a.units && a.units.includes(name))) return;
  toggle(G.sel.units, name);
  if (!matching(v).length) { G.sel.units = [name]; G.sel.areas = []; }
  afterClick();
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
  if (!v.actions.some(a => a.areas && a.areas.includes(id))) { render(); return; }
  toggle(G.sel.areas, id);
  if (!matching(v).length) { G.sel.areas = [id]; }
  afterClick();
}

// ---------- off the map: turn, tracks, pools, legend
function counterStrip(v, names) {
  const groups = {};
  for (const n of names) { const u = v.board.units[n]; const k = u.type + (u.neut ? "*" : ""); (groups[k] = groups[k] || []).push(n); }
  const keys = Object.keys(groups).sort();
  const svg = s("svg", { width: Math.max(1, keys.length) * TILE_W + 2, height: TILE_H + 2, class: "pool-counters", "font-family": FONT });
  keys.forEach((k, i) => svg.append(counterTile(v, groups[k][0], 1 + i * TILE_W, 1, new Set(), groups[k].length)));
  return keys.length ? svg : el("span", { class: "small" }, "none");
}

function offMapPanel(v) {
  const b = v.board, t = b.tracks;
  const p = el("div", { class: "offmap", id: "offmap" });
  const bz = t.bz === null ? "not mobilized" : (t.bz >= 0 ? "+" : "") + t.bz + (t.bz_active ? " active" : "");
  const flags = [t.independent ? "Morocco & Tunisia independent" : "", t.amnesty ? "Amnesty" : "", t.jealousy ? "Jealousy & Paranoia" : "",
    t.slow_french ? "Slow French reaction" : "", t.oas !== "inactive" ? "OAS " + t.oas + (t.oas_controller ? " (" + t.oas_controller.toUpperCase() + ")" : "") : ""].filter(Boolean);
  p.append(el("div", { class: "tracks", id: "tracks" },
    el("span", { class: "turn", id: "turn-phase" }, `Turn ${b.turn}${t.turn_limit ? "/" + t.turn_limit : ""} \u2014 ${b.phase}`),
    el("span", { class: "track" }, "FLN PSL ", el("b", { id: "psl-fln", class: "fln" }, t.fln_psl)),
    el("span", { class: "track" }, "GOV PSL ", el("b", { id: "psl-gov", class: "gov" }, t.gov_psl)),
    el("span", { class: "track" }, "AP ", el("b", { id: "track-ap" }, t.ap)),
    el("span", { class: "track" }, "Air ", el("b", { id: "track-air" }, t.air_avail + "/" + t.air_max)),
    el("span", { class: "track" }, "Helo ", el("b", { id: "track-helo" }, t.helo_avail + "/" + t.helo_max)),
    el("span", { class: "track" }, "Naval ", el("b", { id: "track-naval" }, t.naval)),
    el("span", { class: "track" }, "Border Zone ", el("b", { id: "track-bz" }, bz)),
    flags.length ? el("span", { class: "small" }, flags.join(" \u00b7 ")) : null));
  const psl = el("div", { class: "psl", id: "psl-track", title: "Political Support Levels, 0 to 100" });
  const mark = (val, cls, label) => { const e = el("span", { class: "psl-mark " + cls }, label + " " + val); e.style.left = Math.max(0, Math.min(100, val)) + "%"; return e; };
  for (let i = 0; i <= 100; i += 10) { const tick = el("span", { class: "psl-tick" }, String(i)); tick.style.left = i + "%"; psl.append(tick); }
  psl.append(mark(t.fln_psl, "fln", "FLN"), mark(t.gov_psl, "gov", "GOV"));
  p.append(psl);
  const off = b.offmap;
  const pool = (title, id, names) => el("div", { class: "pool", id }, el("div", { class: "pool-title" }, title + " (" + names.length + ")"), counterStrip(v, names));
  p.append(el("div", { class: "pools" }, pool("Available", "pool-available", off.pool), pool("Eliminated", "pool-eliminated", off.removed),
    off.nato.length ? pool("NATO", "pool-nato", off.nato) : null, off.suez.length ? pool("Suez", "pool-suez", off.suez) : null));
  // legend: one symbol of each unit type
  const legend = el("div", { class: "legend", id: "legend" }, el("div", { class: "pool-title" }, "Counters (APP-6): firepower-contact (Government) or firepower-evasion (FLN); a static unit has one number"));
  for (const [key, ty] of Object.entries(b.types)) {
    const svg = s("svg", { width: 40, height: 34, class: "legend-symbol" });
    const g = s("g", { transform: "translate(20,19)" });
    g.append(APP6.symbol(ty.symbol, ty.side, {}, 0.9));
    svg.append(g);
    legend.append(el("span", { class: "legend-item", "data-type": key }, svg, ty.name));
  }
  const mods = [["neutralized", { neutralized: true }], ["airmobile", { airmobile: true }], ["dispersed division", { dispersed: true }]];
  for (const [name, mod] of mods) {
    const svg = s("svg", { width: 52, height: 34, class: "legend-symbol" });
    const g = s("g", { transform: "translate(20,19)" });
    g.append(APP6.symbol(b.types.fr_xx.symbol, "gov", mod, 0.9));
    svg.append(g);
    legend.append(el("span", { class: "legend-item" }, svg, name));
  }
  p.append(legend);
  return p;
}

document.addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape" || !G.view || G.view.game !== "algeria") return;
  G.detailPinned = false;
  hideDetail();
  if (G.sel.units.length || G.sel.areas.length || G.sel.boxes.length || G.chosen) { clearSel(); render(); }
});
