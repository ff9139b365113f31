// Checks test_board_layout.py runs in the page: an object of functions, evaluated whole.
({
  smallText() {
    // every piece of text on the board and in the panels under it, with its size on screen
    const out = [];
    for (const t of document.querySelectorAll('.boardcol text')) {
      if (!t.textContent.trim() || !t.getClientRects().length) continue;
      const m = t.getScreenCTM();
      const px = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
      if (px < 11.99) out.push([t.textContent, px]);
    }
    for (const e of document.querySelectorAll('.boardcol *')) {
      if (e instanceof SVGElement) continue;
      const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
      if (own && parseFloat(getComputedStyle(e).fontSize) < 11.99) out.push([e.textContent, getComputedStyle(e).fontSize]);
    }
    return out;
  },

  covered() {
    // an area label is covered where the top element at one of its points is not the label
    const out = [];
    const svgr = document.getElementById('algeria-board').getBoundingClientRect();
    for (const lab of document.querySelectorAll('g.area-label')) {
      const r = lab.querySelector('rect.label-bg').getBoundingClientRect();
      for (const t of lab.querySelectorAll('text')) {
        const b = t.getBoundingClientRect();
        if (b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5)
          out.push([lab.dataset.area, 'text outside its label']);
      }
      if (r.left < svgr.left || r.right > svgr.right || r.top < svgr.top || r.bottom > Math.min(svgr.bottom, innerHeight))
        out.push([lab.dataset.area, 'off the visible map']);
      for (const fx of [0.05, 0.25, 0.5, 0.75, 0.95]) for (const fy of [0.2, 0.5, 0.8]) {
        const hit = document.elementFromPoint(r.left + fx * r.width, r.top + fy * r.height);
        if (!hit || hit.closest('g.area-label') !== lab) out.push([lab.dataset.area, hit ? hit.outerHTML.slice(0, 80) : 'nothing']);
      }
    }
    // no two area nodes overlap, and no node lies over a wilaya's name
    const nodes = [...document.querySelectorAll('g.area-node')].map(n => [n.dataset.area, n.querySelector('rect.node-bg').getBoundingClientRect()]);
    const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    nodes.forEach(([ia, a], i) => nodes.slice(i + 1).forEach(([ib, b]) => { if (meet(a, b)) out.push([ia, 'overlaps ' + ib]); }));
    for (const w of document.querySelectorAll('text[data-wilaya]')) {
      const b = w.getBoundingClientRect();
      for (const [id, r] of nodes) if (meet(b, r)) out.push(['W' + w.dataset.wilaya, 'under ' + id]);
    }
    return out;
  },

  townsHidden() {
    // a town whose dot lies under a counter or a label (the nodes' frames are see-through)
    const out = [];
    for (const c of document.querySelectorAll('#algeria-board circle.town')) {
      const b = c.getBoundingClientRect();
      const over = document.elementsFromPoint(b.left + b.width / 2, b.top + b.height / 2)
        .find(e => e.closest('g.counter, g.area-label, rect.marker'));
      if (over) out.push([c.dataset.area, (over.closest('[data-unit], [data-area]') || over).outerHTML.slice(0, 60)]);
    }
    return out;
  },
})
