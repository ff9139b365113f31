"""In the browser: the whole log with its headers and links to the board, viewing an
earlier turn and back, resigning with a confirm step, a rematch, the charts pages.

Screenshots (1400 x 900) go to tests/artifacts/."""

from __future__ import annotations

import random

import httpx
import pytest
from test_api import create, play_some
from test_browser import browser, shoot, web  # noqa: F401  (fixtures)


@pytest.fixture()
def page(browser):  # noqa: F811
    """A 1400 x 900 page with the browser's settings as a new player has them."""
    ctx = browser.new_context(viewport={"width": 1400, "height": 900})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ctx.close()
    assert not errors, errors


def _game(web, n: int) -> tuple[str, dict]:  # noqa: F811
    with httpx.Client(base_url=web.url, timeout=60) as c:
        out = create(c, game="algeria", scenario="1958", seed=4,
                     seats={"fln": "human", "gov": "random"})
        play_some(c, out["id"], out["seats"], n, random.Random(2))
    return out["id"], out["seats"]


def test_whole_log_links_and_view_turn(page, web):  # noqa: F811
    gid, toks = _game(web, 60)
    page.goto(f"{web.url}/g/{gid}#seat={toks['fln']}")
    page.wait_for_selector("#log .log-turn")
    total = httpx.get(f"{web.url}/api/games/{gid}/log?limit=1").json()["total"]
    assert page.locator("#log-count").inner_text() == f"{total} entries"
    heads = page.locator("#log .log-turn").all_inner_texts()
    assert heads[0].startswith("Set-up") and any(h.startswith("Turn 1") for h in heads)
    assert page.locator("#log .log-side.gov").count() >= 1
    # dice coloured by the side that rolled them
    assert page.locator("#log .die.gov, #log .die.fln").count() >= 1
    # more than the old 60-entry tail: earlier entries page in
    shown = page.locator("#log .log-entry").count()
    if total > 200:
        page.click("#log-earlier")
        page.wait_for_function(
            f"() => document.querySelectorAll('#log .log-entry').length > {shown}")
    # an area named in the log: hovering lights it on the board, a click opens it
    ref = page.locator("#log a.ref-area").last
    area = ref.get_attribute("data-key")
    ref.hover()
    assert page.locator(f'#board [data-area="{area}"].log-hl').count() >= 1
    ref.click()
    page.wait_for_selector(f'#area-detail[data-area="{area}"]')
    shoot(page, "history-log-links.png")
    # a unit named in the log lights its counter or its area
    uref = page.locator("#log a.ref-unit").last
    uref.hover()
    assert page.locator("#board .log-hl, #offmap .log-hl").count() >= 1
    # view turn 1 as it began, then back to live
    live_ply = int(page.locator("#ply").inner_text())
    turns = httpx.get(f"{web.url}/api/games/{gid}/log?limit=1").json()["turns"]
    t1 = next(t["ply"] for t in turns if t["turn"] == 1)
    page.select_option("#view-turn", str(t1))
    page.wait_for_selector("#back-live")
    assert page.locator("#replay-at").inner_text() == str(t1)
    assert "Turn 1" in page.locator("#turn-phase").inner_text() or t1 == 0
    assert page.locator("#log .log-entry.later").count() >= 1
    assert page.locator("#actions button.act").count() == 0     # the past is not played
    shoot(page, "history-view-turn.png")
    page.click("#back-live")
    page.wait_for_selector("#back-live", state="detached")
    assert int(page.locator("#ply").inner_text()) == live_ply


def test_resign_with_confirm_then_rematch(page, web):  # noqa: F811
    gid, toks = _game(web, 3)
    page.goto(f"{web.url}/g/{gid}#seat={toks['fln']}")
    page.wait_for_selector("#resign")
    page.click("#resign")
    page.wait_for_selector("#resign-confirm")
    page.click("#resign-no")                            # thought better of it
    assert page.locator("#resign-confirm").count() == 0
    assert page.locator("#result").count() == 0
    page.click("#resign")
    shoot(page, "history-resign-confirm.png")
    page.click("#resign-yes")
    page.wait_for_selector("#result")
    assert "GOV" in page.locator("#result").inner_text()
    assert "resign" in page.locator("#result").inner_text()
    page.wait_for_selector("#log .log-entry:has-text('FLN resigned: GOV wins')")
    page.click("#rematch")
    page.wait_for_selector("#rematch-link")
    shoot(page, "history-rematch.png")
    page.click("#rematch-link")
    page.wait_for_selector("#status")
    page.wait_for_function(
        "() => document.querySelector('#status').innerText.includes('rematch of')")
    new = page.url.split("/g/")[1].split("#")[0]
    assert new != gid
    v = httpx.get(f"{web.url}/api/games/{new}", headers={"X-Seat-Token": toks["fln"]}).json()
    assert v["you"] == "gov" and v["seats"]["fln"]["kind"] == "bot"


def test_single_action_setting_is_kept(page, web):  # noqa: F811
    gid, toks = _game(web, 0)
    page.goto(f"{web.url}/g/{gid}#seat={toks['fln']}")
    page.wait_for_selector("#single-auto")
    assert page.locator("#single-auto").is_checked()           # on by default
    page.locator("#single-auto").uncheck()
    page.reload()
    page.wait_for_selector("#single-auto")
    assert not page.locator("#single-auto").is_checked()
    assert page.evaluate("localStorage.getItem('djebel-single-without-confirm')") == "0"


def test_charts_pages(page, web):  # noqa: F811
    page.goto(web.url + "/charts")
    items = page.locator(".chart-list a").all_inner_texts()
    for code in ("A.1", "A.2", "A.3", "A.4", "B.1", "B.2", "B.3", "B.4",
                 *(f"C.{i}" for i in range(1, 9))):
        assert any(t.startswith(code) for t in items), code
    assert any("catalog" in t for t in items) and any("tables" in t for t in items)
    page.click("text=C.3 Combat Results Table")
    page.wait_for_selector("table.chart.grid")
    # C.3: roll 6 against 25-36 firepower is 12 hits, as the TOML says
    row6 = page.locator("h2:text-is('hits') + table.grid tr").nth(5).locator("td").all_inner_texts()
    assert row6 == ["1", "2", "3", "5", "8", "12"]
    shoot(page, "charts-c3.png")
    page.goto(web.url + "/charts/catalog")
    assert page.locator("table.chart td:text-is('Leader')").count() == 1
    page.goto(web.url + "/charts/rules-notes")
    assert page.title() == "Rules notes - djebel"
    assert page.locator("h1").all_inner_texts() == ["Rules notes: how djebel reads Algeria"]
    assert page.locator("main h2").count() >= 3
    shoot(page, "charts-rules-notes.png")
    r = httpx.get(web.url + "/charts/z9")
    assert r.status_code == 404 and "no chart 'z9'" in r.json()["error"]
    # no inline script or style in what the server renders
    html = httpx.get(web.url + "/charts/c7").text
    assert "<script" not in html and "style=" not in html and " on" not in html.replace(
        " one", "")


def test_a_single_legal_action_plays_on_its_click(page, web):  # noqa: F811
    """With the setting on (the default), the only legal action of a decision is played
    when clicked, with no Confirm step."""
    rng = random.Random(5)
    with httpx.Client(base_url=web.url, timeout=60) as c:
        scn = c.get("/api/meta").json()["skirmish"][0]
        out = create(c, game="skirmish", scenario=scn, seed=2)
        gid, toks = out["id"], out["seats"]
        for _ in range(400):
            v = c.get(f"/api/games/{gid}").json()
            side = v["active"]
            mine = c.get(f"/api/games/{gid}", headers={"X-Seat-Token": toks[side]}).json()
            if len(mine["actions"]) == 1:
                break
            texts = [a["text"] for a in mine["actions"]]
            calm = [t for t in texts if t.split()[0] not in ("end", "endphase")] or texts
            r = c.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": toks[side]},
                       json={"side": side, "action": rng.choice(calm), "ply": mine["ply"]})
            assert r.status_code == 200, r.text
        else:
            pytest.skip("no decision with a single legal action came up")
    only = mine["actions"][0]["text"]
    page.goto(f"{web.url}/g/{gid}#seat={toks[side]}")
    page.wait_for_selector(f'#actions button[data-action="{only}"]')
    before = int(page.locator("#ply").inner_text())
    page.click(f'#actions button[data-action="{only}"]')
    page.wait_for_function(
        f"() => parseInt(document.querySelector('#ply').innerText) > {before}")
    assert page.locator("#confirm").count() == 0


def test_skirmish_log_names_elements_on_the_table(page, web):  # noqa: F811
    with httpx.Client(base_url=web.url, timeout=60) as c:
        scn = c.get("/api/meta").json()["skirmish"][0]
        out = create(c, game="skirmish", scenario=scn, seed=3, seats={"insurgents": "heuristic"})
        play_some(c, out["id"], out["seats"], 25, random.Random(4))
    page.goto(f"{web.url}/g/{out['id']}#seat={out['seats']['french']}")
    page.wait_for_selector("#log a.ref-element")
    # an element on the table (one still off it lights its roster row only)
    label = page.evaluate("""[...document.querySelectorAll('#log a.ref-element')]
        .map(a => a.dataset.key).reverse()
        .find(k => document.querySelector(`#board [data-element="${k}"]`))""")
    assert label
    ref = page.locator(f'#log a.ref-element[data-key="{label}"]').last
    ref.hover()
    assert page.locator(f'#board [data-element="{label}"].log-hl').count() == 1
    assert page.locator(f'#roster [data-element="{label}"]').count() == 1
    ref.click()
    assert page.locator(f'#board [data-element="{label}"].log-pick').count() == 1
    assert page.locator("#log .log-turn").count() >= 1
    shoot(page, "history-skirmish-log.png")


def test_a_single_action_that_rolls_dice_shows_its_odds_and_waits(page, web):  # noqa: F811
    """With the setting on: the Harass's only 'go' (no die) plays on its click; its only
    target rolls the C.3 dice, so its odds (the return fire with each Air Point the GOV
    may add, 11.11-2) are shown and it waits for Confirm."""
    from djebel.algeria.position import from_position
    from djebel.core.records import make_record

    pos = {"scenario": "1958", "turn": 2, "phase": "operations", "ap": 4,
           "air": {"max": 1, "available": 1},
           "areas": {"II-1": {"OPS": ["band"], "PTL": ["police"]}}}
    r = httpx.post(web.url + "/api/records", json={
        "record": make_record(from_position(pos, seed=1), full=True), "mode": "continue",
        "seats": {"fln": "human", "gov": "heuristic"}})
    page.goto(web.url + r.json()["links"]["fln"])
    page.evaluate("localStorage.setItem('djebel-single-without-confirm', '1')")
    page.reload()
    page.wait_for_selector('#actions button[data-action="harass band1"]')
    page.click('#actions button[data-action="harass band1"]')
    page.click("#confirm")
    page.wait_for_selector('#actions button[data-action="go"]')
    page.click('#actions button[data-action="go"]')                  # played at once
    page.wait_for_selector('#actions button[data-action="target police1"]')
    page.click('#actions button[data-action="target police1"]')
    page.wait_for_selector("#odds")
    assert "+1 Air: hits 0:25% 1:33% 2:33% 3:8%" in page.locator("#odds").inner_text()
    assert int(page.locator("#ply").inner_text()) == 2 and page.locator("#confirm").count()
