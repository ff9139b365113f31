// The skirmish table for miniatures players: terrain to scale on a 10 cm grid with a
// scale bar, every element as its base with its APP-6 symbol, the move, sprint and close
// range rings of the selected element, a ruler with the line of sight along it, and the
// roster of both sides beside the table.
"use strict";

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
const SK = 6;                // SVG units per cm
const MARGIN = 34;           // room around the table for the grid figures and the scale

function tableTitle(b) {
  if (b.setup) return `${b.name} \u2014 set-up: ${b.setup} deploy \u2014 ${b.turn_limit} turns`;
  return `${b.name} \u2014 turn ${b.turn}/${b.turn_limit}, ${b.phasing} phase \u2014 points: French ${b.score.french}, Insurgents ${b.score.insurgents}`;
}

function drawSkirmish(v) {
  const b = v.board;
  const W = b.width * SK, D = b.depth * SK;
  const X = (x) => (x * SK).toFixed(1), Y = (y) => ((b.depth - y) * SK).toFixed(1);
  const full = [-MARGIN, -MARGIN, W + 2 * MARGIN, D + 2 * MARGIN];
  const svg = s("svg", { id: "skirmish-table", "data-depth": b.depth, "data-width": b.width, "font-family": "DejaVu Sans, sans-serif" });
  const edge = s("rect", { x: full[0], y: full[1], width: full[2], height: full[3], fill: "#5b4a36", id: "table-edge" });
  edge.addEventListener("click", () => clearTable());
  svg.append(edge);
  const table = s("rect", { x: 0, y: 0, width: W, height: D, fill: "#e9e4c9", class: "clickable", id: "table-surface" });
  table.addEventListener("click", (ev) => clickTable(ev, svg, b));
  svg.append(table);
  const feats = [...b.terrain].sort((a, c) => (ORDER.indexOf(a.kind) + 100) % 120 - (ORDER.indexOf(c.kind) + 100) % 120);
  const blocking = new Set(((G.ruler && G.ruler.res) || { blocking: [] }).blocking.map(f => f.id));
  for (const f of feats) {
    for (const p of f.polys) {
      const lit = blocking.has(f.id);
      svg.append(s("polygon", { points: p.map(([x, y]) => X(x) + "," + Y(y)).join(" "), fill: FILL[f.kind] || "#ccc",
        "fill-opacity": 0.9, stroke: lit ? "#ff2000" : "#5e5347", "stroke-width": lit ? 4 : f.kind === "wall" ? 1.5 : 0.6,
        "pointer-events": "none", class: lit ? "terrain los-block" : "terrain", "data-feature": f.id, title: `${f.id} (${f.kind.replaceAll("_", " ")})` }));
    }
  }
  // the 10 cm grid over the terrain, with its figures on the edges every 10 cm
  const grid = s("g", { class: "grid", "pointer-events": "none" });
  for (let gx = 0; gx <= b.width + 1e-9; gx += 10) {
    grid.append(s("line", { x1: X(gx), y1: 0, x2: X(gx), y2: D, stroke: "#3b3024", "stroke-opacity": gx % 50 === 0 ? 0.45 : 0.2, "stroke-width": gx % 50 === 0 ? 1.2 : 0.7 }));
    grid.append(s("text", { x: X(gx), y: -8, "font-size": 13, fill: "#f3ead7", "text-anchor": "middle", class: "grid-figure" }, gx));
  }
  for (let gy = 0; gy <= b.depth + 1e-9; gy += 10) {
    grid.append(s("line", { x1: 0, y1: Y(gy), x2: W, y2: Y(gy), stroke: "#3b3024", "stroke-opacity": gy % 50 === 0 ? 0.45 : 0.2, "stroke-width": gy % 50 === 0 ? 1.2 : 0.7 }));
    grid.append(s("text", { x: -6, y: +Y(gy) + 4, "font-size": 13, fill: "#f3ead7", "text-anchor": "end", class: "grid-figure" }, gy));
  }
  svg.append(grid);
  // the scale: a 10 cm bar under the table
  const sc = s("g", { id: "scale-bar", "pointer-events": "none" });
  sc.append(s("rect", { x: 0, y: D + 10, width: 5 * SK, height: 6, fill: "#f3ead7" }), s("rect", { x: 5 * SK, y: D + 10, width: 5 * SK, height: 6, fill: "#3b3024", stroke: "#f3ead7" }));
  sc.append(s("text", { x: 10 * SK + 6, y: D + 18, "font-size": 13, fill: "#f3ead7" }, `10 cm \u00b7 grid 10 cm \u00b7 table ${b.width} x ${b.depth} cm`));
  svg.append(sc);
  b.civilians.forEach((c) => {
    svg.append(s("circle", { cx: X(c.x), cy: Y(c.y), r: 1.5 * SK, fill: c.hits ? "#222" : "#f5a623", stroke: "#333", "pointer-events": "none",
      title: `civilians (${c.hits} casualties)`, class: "civilians" }));
    if (c.hits) svg.append(s("text", { x: X(c.x), y: +Y(c.y) + 4, "font-size": 13, fill: "#fff", "text-anchor": "middle" }, c.hits));
  });
  for (const m of b.markers) {
    svg.append(s("rect", { x: +X(m.x) - 1.5 * SK, y: +Y(m.y) - 1.5 * SK, width: 3 * SK, height: 3 * SK, fill: "#fff", stroke: "#c00", "stroke-width": 2, "pointer-events": "none", title: "casualty " + m.label }));
    svg.append(s("text", { x: X(m.x), y: +Y(m.y) + 4, "font-size": 13, fill: "#c00", "text-anchor": "middle" }, "+"));
  }
  const sel = G.sel.elements[0];
  const selEl = sel ? b.elements.find(e => e.label === sel) : null;
  const acts = matching(v);
  const hot = new Set(acts.flatMap(a => a.elements));
  if (selEl && selEl.on_table) {
    // each ring's label at its own bearing, so that none sits on another
    const ring = (r, id, fill, opacity, dash, label, deg) => {
      if (!r) return;
      svg.append(s("circle", { cx: X(selEl.x), cy: Y(selEl.y), r: r * SK, fill, "fill-opacity": opacity, stroke: "#6b4f00", "stroke-width": 1.5,
        "stroke-dasharray": dash, "pointer-events": "none", id, class: "ring" }));
      const a = deg * Math.PI / 180;
      svg.append(s("text", { x: +X(selEl.x) + Math.cos(a) * r * SK, y: +Y(selEl.y) - Math.sin(a) * r * SK + 4, "font-size": 13, "font-weight": "bold", fill: "#4a3600", "text-anchor": "middle",
        stroke: "#fff", "stroke-width": 3, "paint-order": "stroke", class: "ring-label", "pointer-events": "none" }, label));
    };
    const half = Math.hypot(selEl.w, selEl.d) / 2;
    ring(selEl.sprint_cm, "sprint-range", "#ffe680", 0.10, "6,4", `sprint ${+selEl.sprint_cm.toFixed(1)} cm`, 90);
    ring(selEl.move_cm, "move-range", "#ffe680", 0.25, null, `move ${+selEl.move_cm.toFixed(1)} cm`, 90);
    // close range is edge to edge (D30): from the centre, the base's half-diagonal more
    if (selEl.ap) ring(b.close_cm.ap + half, "close-range", "none", 0, "2,3", `close range ${b.close_cm.ap} cm`, -90);
    if (selEl.at && b.close_cm.at !== b.close_cm.ap) ring(b.close_cm.at + half, "close-range-at", "none", 0, "2,5", `AT close ${b.close_cm.at} cm`, -90);
    for (const t of (G.sight[sel] || [])) {
      const o = b.elements.find(e => e.label === t);
      svg.append(s("line", { x1: X(selEl.x), y1: Y(selEl.y), x2: X(o.x), y2: Y(o.y), stroke: "#1a1a1a", "stroke-width": 1, "stroke-dasharray": "3,3", "pointer-events": "none", class: "sight" }));
    }
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
    const g = s("g", { class: "element clickable" + (picked ? " selected" : ""), "data-element": e.label, onclick: (ev) => { ev.stopPropagation(); clickElement(e.label); } });
    g.append(s("polygon", { points: pts, fill: SIDE_FILL[e.side], "fill-opacity": e.pinned ? 0.35 : 0.75,
      stroke: picked ? "#ff3300" : hot.has(e.label) ? "#ffcc00" : "#000", "stroke-width": picked ? 3 : hot.has(e.label) ? 2.5 : 1,
      "stroke-dasharray": e.airborne ? "5,3" : null, title: `${e.label} ${e.name} (${e.side}) ${elementState(e).join(", ")}` }));
    const rad = e.facing * Math.PI / 180, r = (e.d / 2 + 2.5);
    g.append(s("line", { x1: X(e.x), y1: Y(e.y), x2: X(e.x + Math.cos(rad) * r), y2: Y(e.y + Math.sin(rad) * r), stroke: "#000", "stroke-width": 2 }));
    g.append(s("circle", { cx: X(e.x + Math.cos(rad) * r), cy: Y(e.y + Math.sin(rad) * r), r: 2, fill: "#000" }));
    const sym = s("g", { transform: `translate(${X(e.x)},${Y(e.y)})`, "pointer-events": "none" });
    sym.append(APP6.symbol(e.symbol, e.side, { damaged: e.immobilized || e.weapons_ko }, 0.85));
    g.append(sym);
    const tag = e.label + (e.infantry ? " " + e.sp + "SP" : "") + (e.pinned ? " PIN" : "") + (e.overwatch ? " OW" : "") + (e.damage.length ? " DMG" : "")
      + (e.passengers.length ? " [" + e.passengers.join(" ") + "]" : "");
    let ly = +Y(e.y) - 16;
    const lx = +X(e.x) + 14;
    while (labels.some(([ax, ay]) => Math.abs(ax - lx) < 70 && Math.abs(ay - ly) < 13)) ly -= 14;
    labels.push([lx, ly]);
    g.append(s("text", { x: lx, y: ly, "font-size": 13, "font-weight": "bold", fill: SIDE_FILL[e.side], stroke: "#fff", "stroke-width": 3, "paint-order": "stroke", class: "element-tag" }, tag));
    svg.append(g);
  }
  drawRuler(svg, b, X, Y);
  svg.append(s("text", { x: 0, y: -20, "font-size": 13, "font-weight": "bold", fill: "#f3ead7", id: "table-title" }, tableTitle(b)));
  Zoom.attach(svg, "skirmish", full);
  return svg;
}

function elementState(e) {
  return [e.pinned ? "pinned" : "", e.overwatch ? "overwatch" : "", e.infantry && e.sp < e.strength ? `${e.sp}/${e.strength} SP` : "",
    ...e.damage.map(d => d.replaceAll("_", " ")), e.immobilized ? "immobilized" : "", e.airborne ? "airborne" : ""].filter(Boolean);
}

// ---------- the ruler
function drawRuler(svg, b, X, Y) {
  const R = G.ruler;
  if (!R || !R.a) return;
  const g = s("g", { id: "ruler", "pointer-events": "none" });
  const [ax, ay] = R.a;
  g.append(s("circle", { cx: X(ax), cy: Y(ay), r: 4, fill: "#000" }));
  if (R.b) {
    const [bx, by] = R.b;
    const clear = R.res ? R.res.clear : true;
    const colour = !R.res ? "#444" : clear ? "#0a7a0a" : "#d01010";
    g.append(s("line", { x1: X(ax), y1: Y(ay), x2: X(bx), y2: Y(by), stroke: "#fff", "stroke-width": 5, "stroke-linecap": "round" }));
    g.append(s("line", { x1: X(ax), y1: Y(ay), x2: X(bx), y2: Y(by), stroke: colour, "stroke-width": 2.5, "stroke-dasharray": "10,3", id: "ruler-line", class: clear ? "clear" : "blocked" }));
    g.append(s("circle", { cx: X(bx), cy: Y(by), r: 4, fill: "#000" }));
    const d = Math.hypot(bx - ax, by - ay);
    const txt = `${d.toFixed(1)} cm` + (R.res ? (R.res.clear ? ", line of sight clear" : ", blocked by " + R.res.blocking.map(f => f.id).join(", ")) : "")
      + (R.res && R.res.ends ? `; ${R.res.ends[0]} ${R.res.sees ? "sees" : "cannot see"} ${R.res.ends[1]}` + (R.res.civilians ? " (civilians)" : "") : "");
    g.append(s("text", { x: (+X(ax) + +X(bx)) / 2 + 8, y: (+Y(ay) + +Y(by)) / 2 - 8, "font-size": 13, "font-weight": "bold", fill: colour, stroke: "#fff", "stroke-width": 3.5,
      "paint-order": "stroke", id: "ruler-text" }, txt));
  }
  svg.append(g);
}

// a ruler end: a point, or an element (then the ruler runs centre to centre and says
// whether the first element sees the second)
async function rulerPoint(p, label) {
  const R = G.ruler;
  if (!R.a || R.b) { G.ruler = { on: true, a: p, b: null, res: null, la: label || null }; render(); return; }
  R.b = p; R.lb = label || null; R.res = null;
  render();
  const at = G.at !== null ? "&at=" + G.at : "";
  const q = R.la && R.lb ? `a=${encodeURIComponent(R.la)}&b=${encodeURIComponent(R.lb)}`
    : `x0=${R.a[0]}&y0=${R.a[1]}&x1=${p[0]}&y1=${p[1]}`;
  const r = await api("GET", `/api/games/${G.id}/ruler?${q}${at}`);
  if (G.ruler === R && r.status === 200) { R.res = r.data; render(); }
  else if (G.ruler === R) { G.error = (r.data && r.data.error) || "ruler: error " + r.status; render(); }
}

function rulerResult() {
  const R = G.ruler;
  if (!R || !R.res) return null;
  const f = (p) => `(${p[0]}, ${p[1]})`;
  return el("div", { id: "ruler-result", class: R.res.clear ? "clear" : "blocked" },
    `Ruler: ${R.res.distance} cm from ${f(R.res.from)} to ${f(R.res.to)}; line of sight `
    + (R.res.clear ? "clear" : "blocked by " + R.res.blocking.map(x => `${x.id} (${x.kind.replaceAll("_", " ")})`).join(", "))
    + (R.res.ends ? `; by the rules (D33, any clear line between the bases) ${R.res.ends[0]} ${R.res.sees ? "sees" : "cannot see"} ${R.res.ends[1]}`
      + (R.res.civilians ? ", civilians in the way (D76)" : "") : ""));
}

function toggleRuler() {
  G.ruler = G.ruler && G.ruler.on ? null : { on: true, a: null, b: null, res: null };
  render();
}

// ---------- clicks and keys
function svgPoint(ev, svg, b) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [Math.round(p.x / SK * 10) / 10, Math.round((b.depth - p.y / SK) * 10) / 10];
}

function clearTable() {
  if (G.ruler && G.ruler.on) { G.ruler = { on: true, a: null, b: null, res: null }; render(); return; }
  if (G.view && G.view.game === "skirmish" && (G.sel.elements.length || G.chosen)) { clearSel(); render(); }
}

function clickTable(ev, svg, b) {
  const v = G.view;
  const [x, y] = svgPoint(ev, svg, b);
  if (G.ruler && G.ruler.on) { rulerPoint([x, y]); return; }
  const sel = G.sel.elements[0];
  if (!sel) return;
  const e = b.elements.find(o => o.label === sel);
  const verbs = new Set(matching(v).filter(a => a.point && a.elements[0] === sel).map(a => a.verb));
  // a click where the selected element cannot go clears the selection
  if (!verbs.size || !e.on_table) { clearSel(); render(); return; }
  const dist = Math.hypot(x - e.x, y - e.y);
  const verb = verbs.has("move") && dist <= (e.move_cm || 0) + 0.01 ? "move" : verbs.has("sprint") ? "sprint" : [...verbs][0];
  const face = ((Math.atan2(y - e.y, x - e.x) * 180 / Math.PI) + 360) % 360;
  G.point = [x, y];
  choose(`${verb} ${sel} ${x} ${y} face ${Math.round(face)}`);
}

async function fetchSight(label) {
  if (G.sight[label]) return;
  const at = G.at !== null ? "&at=" + G.at : "";
  const r = await api("GET", "/api/games/" + G.id + "/sight?element=" + encodeURIComponent(label) + at);
  if (r.status === 200) { G.sight[label] = r.data.sees; if (G.sel.elements[0] === label) render(); }
}

function clickElement(label) {
  const v = G.view;
  const b = v.board;
  const e = b.elements.find(o => o.label === label);
  if (G.ruler && G.ruler.on && e && e.on_table) { rulerPoint([e.x, e.y], e.label); return; }
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
  if (sel === label && G.sel.elements.length === 1) { render(); return; }     // stays selected
  G.sel.elements = [label]; G.chosen = null; G.odds = null; G.point = null;
  if (!v.actions.some(a => a.elements.includes(label))) { render(); return; }
  afterClick();
}

document.addEventListener("keydown", (ev) => {
  if (ev.key !== "Escape" || !G.view || G.view.game !== "skirmish") return;
  if (G.ruler && (G.ruler.a || G.ruler.on)) { G.ruler = null; render(); return; }
  clearSel(); render();
});

// ---------- beside the table: the tools and the roster
function tablePanels(v) {
  const b = v.board;
  const p = el("div", { class: "table-panels" });
  const on = G.ruler && G.ruler.on;
  p.append(el("div", { class: "tools" },
    el("button", { id: "ruler-btn", class: on ? "chosen" : "", onclick: toggleRuler }, on ? "Ruler on (Esc to stop)" : "Ruler"),
    el("span", { class: "small" }, on ? " click two points or elements on the table: the distance and the line of sight between them"
      : " select an element to see its move, sprint and close range; Esc or a click on empty table clears"),
    rulerResult()));
  const rows = [el("tr", {}, ...["", "element", "type", "state", "SP", "activated", "pinned", "passengers", "damage"].map(h => el("th", {}, h)))];
  for (const side of ["french", "insurgents"]) {
    for (const e of b.elements.filter(o => o.side === side)) {
      const where = e.removed ? "removed (" + e.removed + ")" : e.embarked_in ? "in " + e.embarked_in : e.on_table ? (e.airborne ? "airborne" : "on table") : "off table";
      const sym = s("svg", { width: 40, height: 38, class: "roster-symbol" });
      const sg = s("g", { transform: "translate(20,20)" });
      sg.append(APP6.symbol(e.symbol, e.side, { damaged: e.immobilized || e.weapons_ko }, 0.8));
      sym.append(sg);
      const tr = el("tr", { class: "roster-row " + side + (G.sel.elements.includes(e.label) ? " selected" : "") + (e.removed ? " removed" : ""), "data-element": e.label,
        onclick: () => { if (e.on_table) clickElement(e.label); } },
        el("td", {}, sym), el("td", {}, el("b", {}, e.label)), el("td", {}, e.name),
        el("td", { class: "state" }, [where, e.overwatch ? "overwatch" : ""].filter(Boolean).join(", ")),
        el("td", {}, e.infantry ? `${e.sp}/${e.strength}` : ""), el("td", { class: "activated" }, e.activated ? "yes" : ""),
        el("td", { class: "pinned" }, e.pinned ? "PINNED" : ""), el("td", { class: "passengers" }, e.passengers.join(", ")),
        el("td", {}, [...e.damage, e.immobilized ? "immobilized" : ""].filter(Boolean).map(d => d.replaceAll("_", " ")).join(", ")));
      rows.push(tr);
    }
  }
  p.append(el("div", { class: "panel roster" }, el("b", {}, "Roster"), el("table", { id: "roster" }, ...rows)));
  return p;
}
