// APP-6 unit symbols, drawn in SVG from the table the server sends (web/data/symbols.toml):
// frame by affiliation, function icon, echelon mark above, mobility below, and the
// operational modifiers (neutralized: damaged slash; airmobile: air assault rotor;
// dispersed: reduced "(-)").
"use strict";

const APP6 = (() => {
  const NS = "http://www.w3.org/2000/svg";
  // APP-6 fill colours: friend crystal blue, hostile salmon red.
  const FILL = { friend: "#80e0ff", hostile: "#ff8080" };
  const FRIENDS = new Set(["gov", "french"]);
  // Frame geometry in symbol units: friendly land frame 30 x 20 (1.5:1), hostile diamond
  // of half-diagonal 15, air frames open at the bottom.
  const HALF = { friend: [15, 10], hostile: [15, 15] };

  function node(tag, attrs) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) e.setAttribute(k, v);
    return e;
  }
  const path = (d, extra) => node("path", Object.assign({ d, fill: "none", stroke: "#000", "stroke-width": 1.3 }, extra || {}));
  // letters never under 12 px at the scale the symbol is drawn at
  let scaleNow = 1;
  const text = (x, y, s, size) => {
    const t = node("text", { x, y, "font-size": Math.max(size, 12.2 / scaleNow), "font-weight": "bold", "text-anchor": "middle", fill: "#000", class: "app6-letter" });
    t.textContent = s;
    return t;
  };

  function frame(aff, air) {
    const [w, h] = HALF[aff];
    const style = { fill: FILL[aff], stroke: "#000", "stroke-width": 1.4, class: "app6-frame" };
    if (air) {
      // air frames: the friendly dome and the hostile half-diamond, open at the bottom
      const d = aff === "friend" ? `M${-w},${h} L${-w},0 A${w},${w} 0 0 1 ${w},0 L${w},${h}`
        : `M${-w},${h} L${-w},0 L0,${-h} L${w},0 L${w},${h}`;
      return path(d, style);
    }
    if (aff === "friend") return node("rect", Object.assign({ x: -w, y: -h, width: 2 * w, height: 2 * h }, style));
    return node("polygon", Object.assign({ points: `0,${-h} ${w},0 0,${h} ${-w},0` }, style));
  }

  // The function icon inside the icon box: a half-width and half-height to fill.
  function icon(fn, letter, w, h, g) {
    const cross = () => g.append(path(`M${-w},${-h} L${w},${h} M${-w},${h} L${w},${-h}`));
    const oval = () => g.append(node("rect", { x: -w * 0.62, y: -h * 0.5, width: w * 1.24, height: h, rx: h * 0.5, fill: "none", stroke: "#000", "stroke-width": 1.3 }));
    const rotor = (y) => g.append(path(`M${-w * 0.45},${y - 2.5} L${w * 0.45},${y + 2.5} L${w * 0.45},${y - 2.5} L${-w * 0.45},${y + 2.5} Z`, { fill: "#000" }));
    switch (fn) {
      case "infantry": cross(); break;
      case "armour": oval(); break;
      case "mechanized": cross(); oval(); break;
      case "armoured_recon": oval(); g.append(path(`M${-w},${h} L${w},${-h}`)); break;
      case "airborne": cross(); g.append(path(`M${-w * 0.5},${h} A${w * 0.5},${h * 0.55} 0 0 1 ${w * 0.5},${h}`, { "stroke-width": 2 })); break;
      case "air_assault": cross(); rotor(h * 0.55); break;
      case "marines": cross(); g.append(path(`M${-w},${h * 0.35} q${w / 4},${-h / 3} ${w / 2},0 t${w / 2},0 t${w / 2},0 t${w / 2},0`, { "stroke-width": 1.6 })); break;
      case "police": g.append(text(0, h * 0.55, "POL", 10)); break;
      case "guerrilla": g.append(text(0, h * 0.55 + 1, "G", 13)); break;
      case "antitank": g.append(path(`M${-w},${h} L0,${-h} L${w},${h}`)); break;
      case "air_defence": g.append(path(`M${-w},${h} Q0,${-h * 0.9} ${w},${h}`)); break;
      case "vehicle": g.append(path(`M${-w * 0.8},${h * 0.1} L${w * 0.8},${h * 0.1}`, { "stroke-width": 2 })); break;
      case "rotary_wing": rotor(letter ? h * 0.5 : 0); break;
      case "fixed_wing": g.append(path(`M0,${-h} L0,${h} M${-w},${-h * 0.1} L${w},${-h * 0.1} M${-w * 0.4},${h * 0.8} L${w * 0.4},${h * 0.8}`, { "stroke-width": 1.8 })); break;
      default: cross();
    }
    if (letter) {
      // the rotor under the letter; beside the aeroplane, in the frame's open bottom
      if (fn === "fixed_wing") g.append(text(w * 0.62, h + 1, letter, 10));
      else if (fn === "rotary_wing") g.append(text(0, h * 0.1, letter, 10));
      else g.append(text(0, -h * 0.1 + 4, letter, 10));
    }
  }

  // Echelon marks above the frame: team a slashed circle, squad one dot, section two,
  // company a bar, battalion two, regiment three, brigade an X, division two.
  function echelon(ech, top, g) {
    const y = top - 5;
    const dots = (n) => { for (let i = 0; i < n; i++) g.append(node("circle", { cx: (i - (n - 1) / 2) * 5, cy: y, r: 1.7, fill: "#000" })); };
    const bars = (n) => { for (let i = 0; i < n; i++) g.append(path(`M${(i - (n - 1) / 2) * 4},${y - 3.5} L${(i - (n - 1) / 2) * 4},${y + 3.5}`, { "stroke-width": 1.6 })); };
    const xs = (n) => { for (let i = 0; i < n; i++) { const cx = (i - (n - 1) / 2) * 8; g.append(path(`M${cx - 3},${y - 3.5} L${cx + 3},${y + 3.5} M${cx - 3},${y + 3.5} L${cx + 3},${y - 3.5}`, { "stroke-width": 1.6 })); } };
    switch (ech) {
      case "team": g.append(node("circle", { cx: 0, cy: y, r: 3, fill: "none", stroke: "#000", "stroke-width": 1.3 })); g.append(path(`M-4,${y + 4} L4,${y - 4}`)); break;
      case "squad": dots(1); break;
      case "section": dots(2); break;
      case "company": bars(1); break;
      case "battalion": bars(2); break;
      case "regiment": bars(3); break;
      case "brigade": xs(1); break;
      case "division": xs(2); break;
      default: break;
    }
  }

  function mobility(mob, bottom, g) {
    if (mob === "wheeled") for (const x of [-7, 7]) g.append(node("circle", { cx: x, cy: bottom + 4, r: 2.6, fill: "none", stroke: "#000", "stroke-width": 1.3 }));
    else if (mob === "tracked") g.append(node("rect", { x: -12, y: bottom + 1.5, width: 24, height: 5, rx: 2.5, fill: "none", stroke: "#000", "stroke-width": 1.3 }));
    else if (mob === "amphibious") g.append(path(`M-12,${bottom + 4} q3,-3 6,0 t6,0 t6,0 t6,0`));
  }

  /** One symbol, centred on the frame's centre, in a <g> scaled by ``scale``.
   * sym: {fn, echelon, mobility, hq, letter}; side: the game's side name;
   * mods: {neutralized, airmobile, dispersed, damaged}. */
  function symbol(sym, side, mods, scale) {
    mods = mods || {};
    scaleNow = scale || 1;
    const aff = FRIENDS.has(side) ? "friend" : "hostile";
    const air = sym.fn === "rotary_wing" || sym.fn === "fixed_wing";
    const [w, h] = HALF[aff];
    const g = node("g", { class: "app6 app6-" + aff, "data-fn": sym.fn, "data-echelon": sym.echelon || "", transform: `scale(${scale || 1})` });
    g.append(frame(aff, air));
    // the icon box: the friendly frame's inside, or the square inscribed in the diamond
    const iw = aff === "friend" ? w : w * 0.5, ih = aff === "friend" ? h : h * 0.5;
    const ig = node("g", {});
    icon(sym.fn, sym.letter, iw, ih, ig);
    g.append(ig);
    if (sym.echelon) echelon(sym.echelon, -h, g);
    if (sym.mobility) mobility(sym.mobility, h, g);
    if (sym.hq) g.append(path(`M${-w},${aff === "friend" ? h : 0} L${-w},${h + 10}`, { "stroke-width": 1.6, class: "app6-hq" }));
    if (mods.airmobile) {
      // air assault: the rotary-wing modifier in the frame's lower sector
      g.append(path(`M-6,${h * 0.55} L6,${h * 0.55 + 5} L6,${h * 0.55} L-6,${h * 0.55 + 5} Z`, { fill: "#000", class: "app6-airmobile" }));
    }
    if (mods.dispersed) {
      const t = text(w + 9, -h + 4, "(\u2212)", 10);
      t.setAttribute("class", "app6-reduced");
      g.append(t);
    }
    if (mods.neutralized || mods.damaged) {
      // operational condition: damaged, one slash across the frame
      g.append(path(`M${-w - 3},${h + 3} L${w + 3},${-h - 3}`, { stroke: "#000", "stroke-width": 2.6, class: "app6-damaged" }));
    }
    return g;
  }

  return { symbol, FILL, HALF };
})();
