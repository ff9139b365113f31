"""The board and the table as a wargamer sees them at 1400 x 900: APP-6 symbols, text no
smaller than 12 px, area labels never covered, zoom and pan, the area detail, the
off-map panels, the skirmish roster, ruler, grid, rings, set-up prompt and selection.

Screenshots at 1400 x 900 go to tests/artifacts/."""

from __future__ import annotations

import re
import time
from pathlib import Path

import httpx
import pytest
from test_browser import (  # noqa: F401
    browser,
    buttons,
    checked_page,
    confirm,
    element_click,
    shoot,
    table_click,
    wait_my_turn,
    web,
)

W, H = 1400, 900


@pytest.fixture()
def page(browser):  # noqa: F811
    with checked_page(browser, W, H) as pg:
        yield pg


def algeria(page, web, seed: int = 7, set_up: bool = True) -> str:  # noqa: F811
    """A 1958 game, the Government human (set up at random), the FLN the heuristic bot,
    opened at the Government's first reinforcement decision (or its set-up)."""
    r = httpx.post(web.url + "/api/games", json={
        "game": "algeria", "scenario": "1958", "seed": seed,
        "seats": {"fln": "heuristic", "gov": "human"}})
    page.goto(web.url + r.json()["links"]["gov"])
    page.wait_for_selector("#algeria-board")
    wait_my_turn(page)
    while set_up and "place auto" in buttons(page):
        page.locator('button[data-action="place auto"]').click()
        before = confirm(page)
        wait_my_turn(page, before)
    settle(page)
    return r.json()["id"]


def settle(page) -> None:
    """Until the page has drawn the same ply for half a second (a late live message can
    redraw the board once more after our turn came)."""
    last, since = None, time.time()
    while time.time() - since < 0.5:
        now = page.evaluate("G.view && G.view.ply")
        if now != last:
            last, since = now, time.time()
        page.wait_for_timeout(50)


def board(web, gid: str) -> dict:  # noqa: F811
    return httpx.get(f"{web.url}/api/games/{gid}").json()["board"]


CHECKS = (Path(__file__).parent / "layout_checks.js").read_text()
SMALL_TEXT = f"() => ({CHECKS}).smallText()"      # text under 12 px on screen
COVERED = f"() => ({CHECKS}).covered()"           # area labels covered or overlapping
TOWNS_HIDDEN = f"() => ({CHECKS}).townsHidden()"  # town dots under a counter or a label


def test_algeria_board_reads_at_1400_by_900(page, web):  # noqa: F811
    gid = algeria(page, web)
    b = board(web, gid)
    shoot(page, "algeria-board-1400.png")
    assert page.evaluate(SMALL_TEXT) == []
    assert page.evaluate(COVERED) == []
    # the nodes' frames let the map through; a node over a town steps aside when it can
    # (in the crowded Tell five towns of 27 still lie under a counter or a label)
    assert len(page.evaluate(TOWNS_HIDDEN)) <= 5
    # every area on the map, labelled with its name and code
    labels = page.locator("g.area-label").evaluate_all(
        "ls => ls.map(l => [l.dataset.area, l.querySelector('.area-name').textContent,"
        " l.querySelector('.area-code').textContent])")
    assert len(labels) == len(b["areas"]) == 28          # with France, Morocco and Tunisia
    assert ["I-1", "Barika", "I-1"] in labels and ["ALGIERS", "Algiers", "ALGIERS"] in labels
    # each area's stacks: one per side present, the count of its units on it
    for a in b["areas"]:
        units = [u for names in a["boxes"].values() for u in names]
        for side in ("gov", "fln"):
            mine = [u for u in units if b["units"][u][0] in
                    {k for k, t in b["types"].items() if t["side"] == side}]
            stack = page.locator(f'g.area-node[data-area="{a["id"]}"] g.stack[data-side="{side}"]')
            assert stack.count() == (1 if mine else 0)
            if len(mine) > 1:
                assert stack.locator("text.stack-count").text_content() == str(len(mine))


def test_counters_are_app6_symbols(page, web):  # noqa: F811
    gid = algeria(page, web)
    b = board(web, gid)
    page.locator('g.area-node[data-area="ALGIERS"]').dispatch_event("mouseenter")
    page.wait_for_selector("#area-detail")
    seen = page.locator("g.counter").evaluate_all("""cs => cs.map(c => {
        const g = c.querySelector('g.app6');
        return [c.dataset.unit, g.dataset.fn, g.dataset.echelon,
                g.classList.contains('app6-friend'), g.querySelector('.app6-frame').tagName,
                c.querySelector('text.ratings').textContent]; })""")
    assert len(seen) > 30
    for unit, fn, echelon, friend, frame, ratings in seen:
        key, fp, rating, _ = b["units"][unit]
        ty = b["types"][key]
        assert (fn, echelon) == (ty["symbol"]["fn"], ty["symbol"]["echelon"])
        # APP-6 affiliation: friendly rectangle for the Government, hostile diamond the FLN
        assert friend == (ty["side"] == "gov")
        assert frame == ("rect" if ty["side"] == "gov" else "polygon")
        assert ratings == (str(fp) if ty["static"] else f"{fp}-{rating}")
    # the standard's modifiers: neutralized damaged, airmobile air assault, dispersed reduced
    mods = page.evaluate("""() => {
        const sym = G.view.board.types.fr_xx.symbol, q = (m) => APP6.symbol(sym, 'gov', m, 1);
        return [q({neutralized: true}).querySelectorAll('.app6-damaged').length,
                q({airmobile: true}).querySelectorAll('.app6-airmobile').length,
                q({dispersed: true}).querySelector('.app6-reduced').textContent,
                q({}).querySelectorAll('.app6-damaged, .app6-airmobile, .app6-reduced')
                  .length]; }""")
    assert mods == [1, 1, "(\u2212)", 0]
    page.locator("#legend").scroll_into_view_if_needed()
    shoot(page, "algeria-legend-and-pools.png")
    legend = page.locator("#legend .legend-item").all_inner_texts()
    for name in ("French elite brigade", "Band", "Police", "neutralized", "airmobile"):
        assert any(t.endswith(name) for t in legend), name


def test_area_detail_opens_on_hover_and_stays_on_click(page, web):  # noqa: F811
    gid = algeria(page, web)
    b = board(web, gid)
    a = next(x for x in b["areas"] if x["id"] == "ALGIERS")
    page.locator('g.area-node[data-area="ALGIERS"] g.area-label').hover()
    page.wait_for_selector('#area-detail[data-area="ALGIERS"]')
    for bx, names in a["boxes"].items():
        row = page.locator(f'#area-detail .box-row[data-box="{bx}"] g.counter')
        assert row.evaluate_all("cs => cs.map(c => c.dataset.unit)") == names
    assert "Algiers (ALGIERS)" in page.locator("#area-detail .detail-head").inner_text()
    shoot(page, "algeria-area-detail.png")
    page.mouse.move(5, 880)                                   # away: it closes
    page.wait_for_selector("#area-detail", state="detached")
    page.locator('g.area-node[data-area="V-2"] g.area-label').click()     # a click pins it
    page.mouse.move(5, 880)
    page.wait_for_timeout(600)
    assert page.locator('#area-detail[data-area="V-2"]').count() == 1
    page.click("#detail-close")
    assert page.locator("#area-detail").count() == 0
    page.locator('g.area-node[data-area="V-2"] g.area-label').click()
    page.keyboard.press("Escape")                             # Escape closes it too
    assert page.locator("#area-detail").count() == 0


def test_actions_name_the_areas(page, web):  # noqa: F811
    algeria(page, web, set_up=False)
    names = page.evaluate(
        "Object.fromEntries(Object.entries(G.map.areas).map(([k, a]) => [k, a.name]))")
    names["FRANCE"] = "France"
    shown = page.locator("#actions button.act").evaluate_all(
        "bs => bs.map(b => [b.dataset.action, b.textContent])")
    named = 0
    for notation, text in shown:
        for w in notation.split():
            if w in names:
                assert f"{names[w]} ({w})" in text, (notation, text)
                named += 1
    assert named >= 4
    page.locator('button[data-action="place auto"]').click()
    before = confirm(page)
    wait_my_turn(page, before)
    while "place auto" in buttons(page):
        page.locator('button[data-action="place auto"]').click()
        before = confirm(page)
        wait_my_turn(page, before)
    shown = page.locator("#actions button.act").evaluate_all(
        "bs => bs.map(b => [b.dataset.action, b.textContent])")
    # a unit's area is added where the notation names none: "activate fr_xx1 in Tebessa (I-4)"
    located = [t for a, t in shown if re.fullmatch(r"\S+ \S+ in [A-Z][a-z].* \([A-Z0-9-]+\)", t)]
    assert located and all(t.startswith(a + " in ") for a, t in shown if t in located)


def test_zoom_pan_and_fit(page, web):  # noqa: F811
    algeria(page, web)
    def vb() -> list[float]:
        return [float(x) for x in
                page.locator("#algeria-board").get_attribute("viewBox").split()]
    name_px = """() => document.querySelector('g.area-node[data-area="I-1"] .area-name')
                           .getBoundingClientRect().height"""
    full = vb()
    assert full == [0, 0, 1000, 721]
    h0 = page.evaluate(name_px)
    box = page.locator("#algeria-board").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -400)
    page.wait_for_function(
        "() => document.getElementById('algeria-board').viewBox.baseVal.width < 900")
    assert page.evaluate(name_px) > h0 * 1.1
    page.keyboard.press("0")
    assert vb() == full
    page.keyboard.press("+")
    z = vb()
    assert z[2] == pytest.approx(800) and z[3] == pytest.approx(576.8)
    page.keyboard.press("ArrowRight")
    assert vb()[0] == pytest.approx(z[0] + 80)
    page.keyboard.press("ArrowUp")
    assert vb()[1] == pytest.approx(z[1] - 57.68)
    # a drag pans and clicks nothing
    x0 = vb()[0]
    sel_before = page.evaluate("JSON.stringify(G.sel)")
    page.mouse.move(box["x"] + 440, box["y"] + 300)
    page.mouse.down()
    page.mouse.move(box["x"] + 500, box["y"] + 300, steps=5)
    page.mouse.up()
    k = page.evaluate("1 / document.getElementById('algeria-board').getScreenCTM().a")
    assert vb()[0] == pytest.approx(x0 - 60 * k, abs=0.5)
    assert page.evaluate("JSON.stringify(G.sel)") == sel_before
    shoot(page, "algeria-zoomed.png")
    # pinch: two pointers moving apart zoom in about their middle
    page.keyboard.press("0")
    page.evaluate("""() => {
        const svg = document.getElementById('algeria-board'), r = svg.getBoundingClientRect();
        const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
        const ev = (type, id, x) => svg.dispatchEvent(new PointerEvent(type,
            {pointerId: id, clientX: x, clientY: cy, button: 0, bubbles: true}));
        ev('pointerdown', 1, cx - 50); ev('pointerdown', 2, cx + 50);
        ev('pointermove', 1, cx - 100); ev('pointermove', 2, cx + 100);
        ev('pointerup', 1, cx - 100); ev('pointerup', 2, cx + 100); }""")
    assert vb()[2] == pytest.approx(500, abs=1)
    page.click("#zoom-fit")
    assert vb() == full
    page.keyboard.press("-")                       # never smaller than the whole map
    assert vb() == full


def test_pools_off_the_map(page, web):  # noqa: F811
    gid = algeria(page, web)
    b = board(web, gid)
    for pid, names in (("pool-available", b["offmap"]["pool"]),
                       ("pool-eliminated", b["offmap"]["removed"])):
        counts = page.locator(f"#{pid} g.counter").evaluate_all(
            "cs => cs.map(c => { const t = c.querySelector('.stack-count');"
            " return t ? +t.textContent : 1; })")
        assert sum(counts) == len(names)
        assert page.locator(f"#{pid} .pool-title").inner_text().endswith(f"({len(names)})")
    assert page.locator("#turn-phase").inner_text().startswith("Turn 1")


# ---------------------------------------------------------------- skirmish
def hot_seat_ambush(page, web) -> str:  # noqa: F811
    r = httpx.post(web.url + "/api/games", json={
        "game": "skirmish", "scenario": "ambush", "seed": 5,
        "seats": {"french": "human", "insurgents": "human"}})
    g = r.json()
    page.goto(web.url + "/g/" + g["id"] + "#" + "&".join("seat=" + t for t in g["seats"].values()))
    page.wait_for_selector("#skirmish-table")
    wait_my_turn(page)
    return g["id"]


def selected(page) -> list[str]:
    return page.evaluate("G.sel.elements")


def test_skirmish_roster_grid_rings_and_selection(page, web):  # noqa: F811
    gid = hot_seat_ambush(page, web)
    b = board(web, gid)
    # the set-up: the prompt offers what is accepted, the title names the set-up
    assert page.locator("#prompt").inner_text() == (
        "set-up: the french start where the scenario places them; 'ready'")
    assert "set-up: french deploy" in page.locator("#table-title").text_content()
    assert "insurgents phase" not in page.locator("#table-title").text_content()
    # roster: every element, its state and passengers
    rows = page.locator("#roster tr.roster-row")
    assert rows.count() == len(b["elements"]) == 21
    ha = page.locator('#roster tr[data-element="HA"]')
    assert ha.locator("td.passengers").inner_text() == "F2"
    assert page.locator('#roster tr[data-element="F2"] td.state').inner_text() == "in HA"
    i1 = page.locator('#roster tr[data-element="I1"] td.state')
    assert i1.inner_text() == "on table, overwatch"
    # grid figures every 10 cm on both edges, and the scale
    assert page.locator("text.grid-figure").count() == 2 * 13
    assert "10 cm" in page.locator("#scale-bar").text_content()
    assert page.evaluate(SMALL_TEXT) == []
    # a selection stays until cleared
    page.locator('g.element[data-element="F1"] polygon').first.dispatch_event("click")
    page.wait_for_selector("#move-range")
    for ring in ("#move-range", "#sprint-range", "#close-range"):
        assert page.locator(ring).count() == 1
    f1 = next(e for e in b["elements"] if e["label"] == "F1")
    r = float(page.locator("#move-range").get_attribute("r"))
    assert r == pytest.approx(f1["move_cm"] * 6)
    assert page.locator(".ring-label").all_text_contents()[1] == f"move {f1['move_cm']:g} cm"
    shoot(page, "skirmish-selection-rings.png")
    page.locator('g.element[data-element="F1"] polygon').first.dispatch_event("click")
    assert selected(page) == ["F1"]                         # clicking it again keeps it
    assert "selected" in page.locator('#roster tr[data-element="F1"]').get_attribute("class")
    page.keyboard.press("Escape")
    assert selected(page) == [] and page.locator("#move-range").count() == 0
    page.locator('#roster tr[data-element="I4"]').click()     # the roster selects too
    assert selected(page) == ["I4"]
    page.evaluate("window.scrollTo(0, 0)")
    table_click(page, 5, 5)                                  # empty table clears
    assert selected(page) == []
    shoot(page, "skirmish-roster.png", full_page=True)
    # the insurgents' set-up: their 'place' is offered and accepted
    page.locator('#actions button[data-action="ready"]').click()
    before = confirm(page)
    wait_my_turn(page, before)
    assert "set-up: insurgents deploy" in page.locator("#table-title").text_content()
    assert "('place I1 x y face F')" in page.locator("#prompt").inner_text()
    place = next(a for a in buttons(page) if a.startswith("place "))
    page.locator(f'#actions button[data-action="{place}"]').click()
    confirm(page)


def ruled(page) -> str:
    """The length of the ruler laid, from the points the clicks gave (to 0.1 cm)."""
    (x0, y0), (x1, y1) = page.evaluate("[G.ruler.a, G.ruler.b]")
    assert abs(x0 - x1) > 50
    return f"{((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5:.1f}"


def test_skirmish_ruler_lights_what_blocks_the_view(page, web):  # noqa: F811
    hot_seat_ambush(page, web)
    page.click("#ruler-btn")
    table_click(page, 30, 76)
    table_click(page, 90, 76)
    page.wait_for_function("() => document.getElementById('ruler-text') && "
                           "document.getElementById('ruler-text').textContent.includes('blocked')")
    assert page.locator("#ruler-text").text_content() == f"{ruled(page)} cm, blocked by b1, b2, b3"
    lit = page.locator("polygon.los-block").evaluate_all("ps => ps.map(p => p.dataset.feature)")
    assert lit == ["b1", "b2", "b3"]
    assert page.locator("#ruler-line").get_attribute("class") == "blocked"
    assert page.locator("#ruler-result").inner_text().endswith(
        "line of sight blocked by b1 (building), b2 (building), b3 (building)")
    shoot(page, "skirmish-ruler.png")
    # a clear line from element to element
    table_click(page, 30, 50)
    table_click(page, 90, 30)
    deadline = time.time() + 10
    while "clear" not in (page.locator("#ruler-text").text_content() or ""):
        assert time.time() < deadline
        page.wait_for_timeout(30)
    assert page.locator("#ruler-text").text_content() == f"{ruled(page)} cm, line of sight clear"
    assert page.locator("polygon.los-block").count() == 0
    # between two elements: centre to centre, and who sees whom by the rules
    element_click(page, "F1")
    element_click(page, "I5")
    page.wait_for_function(
        "() => document.getElementById('ruler-text').textContent.includes('see')")
    assert page.locator("#ruler-text").text_content() == (
        "29.1 cm, blocked by b2; F1 cannot see I5")
    element_click(page, "F1")
    element_click(page, "I4")
    page.wait_for_function("() => document.getElementById('ruler-text').textContent.includes('I4')")
    assert page.locator("#ruler-result").inner_text().endswith(
        "F1 cannot see I4, civilians in the way (D76)")
    assert selected(page) == []                    # the ruler selects nothing
    page.keyboard.press("Escape")
    assert page.locator("#ruler").count() == 0
    assert page.locator("#ruler-btn").inner_text() == "Ruler"


def test_skirmish_elements_are_app6_symbols(page, web):  # noqa: F811
    gid = hot_seat_ambush(page, web)
    b = board(web, gid)
    seen = dict(page.locator("g.element").evaluate_all(
        "es => es.map(e => [e.dataset.element, e.querySelector('g.app6').dataset.fn])"))
    on = {e["label"]: e for e in b["elements"] if e["on_table"]}
    assert seen == {k: e["symbol"]["fn"] for k, e in on.items()}
    assert (seen["F1"], seen["I1"], seen["I6"]) == ("armoured_recon", "guerrilla", "air_defence")
    page.keyboard.press("+")
    page.keyboard.press("+")
    shoot(page, "skirmish-symbols-zoomed.png")
