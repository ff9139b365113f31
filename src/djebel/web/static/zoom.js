// Pan and zoom of a board's SVG through its viewBox: the wheel and pinch zoom about the
// pointer, a drag pans, the keys + - 0 and the arrows zoom, fit and pan. The view of each
// board is kept across redraws; a drag never counts as a click.
"use strict";

const Zoom = (() => {
  const views = {};          // board key -> [x, y, w, h]
  let cur = null;            // {svg, key, full}
  const MAX = 8;

  function clamp(vb, full) {
    const [fx, fy, fw, fh] = full;
    let [x, y, w, h] = vb;
    const z = Math.min(MAX, Math.max(1, fw / w));
    w = fw / z; h = fh / z;
    x = Math.min(Math.max(x, fx), fx + fw - w);
    y = Math.min(Math.max(y, fy), fy + fh - h);
    return [x, y, w, h];
  }

  function set(vb) {
    if (!cur) return;
    const v = clamp(vb, cur.full);
    views[cur.key] = v;
    cur.svg.setAttribute("viewBox", v.map(n => +n.toFixed(2)).join(" "));
    cur.svg.dispatchEvent(new CustomEvent("zoomed"));
  }

  function get() { return cur ? (views[cur.key] || cur.full) : null; }

  // zoom by factor k about the client point (cx, cy), or the centre
  function zoomBy(k, cx, cy) {
    const vb = get();
    if (!vb) return;
    // the point under the pointer stays put (through the screen matrix: the drawing may
    // be letterboxed in its box)
    let fx = 0.5, fy = 0.5;
    if (cx !== undefined) {
      const p = cur.svg.createSVGPoint();
      p.x = cx; p.y = cy;
      const q = p.matrixTransform(cur.svg.getScreenCTM().inverse());
      fx = (q.x - vb[0]) / vb[2]; fy = (q.y - vb[1]) / vb[3];
    }
    const px = vb[0] + fx * vb[2], py = vb[1] + fy * vb[3];
    const w = vb[2] / k, h = vb[3] / k;
    set([px - fx * w, py - fy * h, w, h]);
  }

  function pan(dx, dy) {          // in fractions of the view
    const vb = get();
    if (vb) set([vb[0] + dx * vb[2], vb[1] + dy * vb[3], vb[2], vb[3]]);
  }

  function fit() { if (cur) set(cur.full.slice()); }

  function attach(svg, key, full) {
    cur = { svg, key, full };
    const vb = views[key] ? clamp(views[key], full) : full.slice();
    views[key] = vb;
    svg.setAttribute("viewBox", vb.join(" "));
    svg.classList.add("zoomable");
    svg.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      zoomBy(Math.exp(-ev.deltaY * 0.0015), ev.clientX, ev.clientY);
    }, { passive: false });
    const pts = new Map();
    let start = null, pinch = null;
    svg.addEventListener("pointerdown", (ev) => {
      if (ev.button !== 0) return;
      pts.set(ev.pointerId, [ev.clientX, ev.clientY]);
      svg.dragged = false;
      if (pts.size === 1) start = { x: ev.clientX, y: ev.clientY, vb: get().slice() };
      if (pts.size === 2) {
        const [a, b] = [...pts.values()];
        pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]), vb: get().slice() };
      }
    });
    svg.addEventListener("pointermove", (ev) => {
      if (!pts.has(ev.pointerId)) return;
      pts.set(ev.pointerId, [ev.clientX, ev.clientY]);
      const k = 1 / svg.getScreenCTM().a;          // SVG units per screen pixel
      if (pinch && pts.size === 2) {
        const [a, b] = [...pts.values()];
        const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
        views[key] = pinch.vb.slice();
        zoomBy(d / pinch.d, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
        svg.dragged = true;
        return;
      }
      if (!start) return;
      const dx = ev.clientX - start.x, dy = ev.clientY - start.y;
      if (!svg.dragged && Math.hypot(dx, dy) < 5) return;
      if (!svg.dragged) svg.setPointerCapture(ev.pointerId);
      svg.dragged = true;
      const vb = start.vb;
      set([vb[0] - dx * k, vb[1] - dy * k, vb[2], vb[3]]);
    });
    const up = (ev) => {
      pts.delete(ev.pointerId);
      if (pts.size < 2) pinch = null;
      if (!pts.size) start = null;
    };
    svg.addEventListener("pointerup", up);
    svg.addEventListener("pointercancel", up);
    // a drag is not a click on what lies under the pointer
    svg.addEventListener("click", (ev) => { if (svg.dragged) { ev.stopPropagation(); ev.preventDefault(); svg.dragged = false; } }, true);
  }

  document.addEventListener("keydown", (ev) => {
    if (!cur || !document.contains(cur.svg)) return;
    const t = ev.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const keys = {
      "+": () => zoomBy(1.25), "=": () => zoomBy(1.25), "-": () => zoomBy(0.8), "0": fit,
      ArrowLeft: () => pan(-0.1, 0), ArrowRight: () => pan(0.1, 0),
      ArrowUp: () => pan(0, -0.1), ArrowDown: () => pan(0, 0.1),
    };
    if (keys[ev.key]) { ev.preventDefault(); keys[ev.key](); }
  });

  // the buttons beside a board
  function toolbar() {
    const b = (label, title, fn, id) => {
      const e = document.createElement("button");
      e.textContent = label; e.title = title; e.id = id; e.className = "zoom-btn";
      e.addEventListener("click", fn);
      return e;
    };
    const bar = document.createElement("div");
    bar.className = "zoombar";
    bar.append(b("+", "zoom in (+ or the wheel)", () => zoomBy(1.25), "zoom-in"),
      b("\u2212", "zoom out (-)", () => zoomBy(0.8), "zoom-out"),
      b("fit", "the whole board (0)", fit, "zoom-fit"));
    const hint = document.createElement("span");
    hint.className = "small";
    hint.textContent = " drag to pan, wheel or pinch to zoom, arrows, + - 0";
    bar.append(hint);
    return bar;
  }

  return { attach, zoomBy, pan, fit, get, toolbar, views };
})();
