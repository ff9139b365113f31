"""End-to-end: Playwright driving Debian's Chromium against a real server.

Screenshots of the board and the table go to tests/artifacts/."""

from __future__ import annotations

import contextlib
import time
from pathlib import Path

import httpx
import pytest
from server import Server
from system import CHROMIUM_ARGS, chromium_or_skip

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
MISSIONS = ("civil-affairs", "suppression", "intelligence")


def shoot(target, name: str, **options) -> None:
    """Save a screenshot of ``target`` (a page or an element) to tests/artifacts/ for a
    person to look at. Chromium under load now and then refuses one capture
    ("Unable to capture screenshot"); it is tried once more before that fails the test."""
    from playwright.sync_api import Error

    try:
        target.screenshot(path=str(ARTIFACTS / name), **options)
    except Error:
        time.sleep(0.5)
        target.screenshot(path=str(ARTIFACTS / name), **options)


@pytest.fixture(scope="module")
def browser():
    exe = chromium_or_skip()
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    db = tmp_path_factory.mktemp("e2e") / "e2e.db"
    srv = Server(f"sqlite:///{db}").start()
    yield srv
    srv.stop()


@contextlib.contextmanager
def checked_page(browser, width: int, height: int):
    """A page whose script errors, and anything the Content-Security-Policy blocks
    (inline script or style), fail the test. These tests step through Confirm each
    time: the setting that plays a single legal action on its click is off here
    (tests/web/test_history_browser.py covers it)."""
    ctx = browser.new_context(viewport={"width": width, "height": height})
    ctx.add_init_script("localStorage.setItem('djebel-single-without-confirm', '0')")
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text)
          if "Content Security Policy" in m.text else None)
    pg.errors = errors
    yield pg
    ctx.close()
    assert not errors, errors


@pytest.fixture()
def page(browser):
    with checked_page(browser, 1700, 1050) as pg:
        yield pg


def ply(page) -> int:
    return int(page.locator("#ply").inner_text())


def wait_my_turn(page, after: int | None = None, timeout: float = 30) -> bool:
    """Wait until actions are offered to us (after ply ``after``); False if the game ended."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            if page.locator("#result").count():
                return False
            if page.locator("#actions button.act").count() and (after is None
                                                                or ply(page) > after):
                return True
        except Exception:
            pass
        page.wait_for_timeout(50)
    raise AssertionError("the page never offered actions")


def confirm(page) -> int:
    before = ply(page)
    page.locator("#confirm").click()
    deadline = time.time() + 20
    while ply(page) == before:
        assert time.time() < deadline, "the action was not played"
        assert not page.locator("#error").count(), page.locator("#error").inner_text()
        page.wait_for_timeout(30)
    return before


def buttons(page) -> list[str]:
    return page.locator("#actions button.act").evaluate_all(
        "bs => bs.map(b => b.dataset.action)")


def game_board(page, web) -> dict:
    gid = page.url.split("/g/")[1].split("#")[0]
    return httpx.get(f"{web.url}/api/games/{gid}").json()["board"]


def area_of(board: dict, unit: str) -> str:
    return next(a["id"] for a in board["areas"]
                if any(unit in names for names in a["boxes"].values()))


def open_area(page, area: str) -> None:
    """The detail of an area, as the pointer coming over it opens it."""
    page.locator(f'g.area-node[data-area="{area}"]').dispatch_event("mouseenter")
    page.wait_for_selector(f'#area-detail[data-area="{area}"]')


def test_algeria_turn_by_clicking_then_reload(page, web):
    # the lobby: Algeria 1958, the Government human, the FLN the heuristic bot
    page.goto(web.url + "/")
    page.select_option("#new-game", "algeria")
    page.select_option("#new-scenario", "1958")
    # the lobby offers the strongest bot, the planner, as the opponent by default
    assert page.locator("#seat-gov").input_value() == "planner"
    assert page.locator("#seat-fln").input_value() == "human"
    page.select_option("#seat-fln", "heuristic")
    page.select_option("#seat-gov", "human")
    page.fill("#new-seed", "7")
    page.fill("#new-title", "e2e Algeria")
    page.click("#create")
    page.wait_for_selector('a.play-link[data-side="gov"]')
    assert page.locator("a.play-link").count() == 1          # one human seat, one link
    seat_link = page.locator('input.seat-link[data-side="gov"]').input_value()
    assert "#seat=" in seat_link
    page.click('a.play-link[data-side="gov"]')
    page.wait_for_selector("#algeria-board")
    wait_my_turn(page)
    assert "seat=" not in page.url           # the secret leaves the address bar, kept aside
    placed_by_click = 0
    clicked_units = 0
    boxes_clicked = 0
    odds_seen = []
    start_turn = None
    for _ in range(120):
        turn_text = page.locator("#turn-phase").text_content()
        turn = int(turn_text.split()[1].split("/")[0])
        if start_turn is None:
            start_turn = turn
        if turn >= 2:
            break
        acts = buttons(page)
        prompt = page.locator("#prompt").inner_text()
        if "set-up" in prompt and placed_by_click < 3:
            area = next(a.split()[2] for a in acts if a.startswith("place ") and a != "place auto")
            page.locator(f'g.area-node[data-area="{area}"] g.area-label').click()
            if page.locator("#confirm").count() == 0:      # still several: pick on the list
                page.locator("#actions button.act").first.click()
            placed_by_click += 1
            before = confirm(page)
        elif "place auto" in acts:
            page.locator('button[data-action="place auto"]').click()
            before = confirm(page)
        elif any(a.split()[0] in MISSIONS for a in acts) and not odds_seen:
            mission = next(a for a in acts if a.split()[0] in MISSIONS)
            area = mission.split()[1]
            page.locator(f'g.area-node[data-area="{area}"] g.area-label').click()
            page.locator(f'#actions button[data-action="{mission}"]').click()
            page.wait_for_selector("#odds", timeout=10_000)
            odds_seen.append(page.locator("#odds").inner_text())
            shoot(page, "algeria-odds.png", full_page=True)
            before = confirm(page)
        elif any(a.startswith("deploy ") for a in acts) and clicked_units == 0:
            unit = next(a.split()[1] for a in acts if a.startswith("deploy "))
            open_area(page, area_of(game_board(page, web), unit))
            page.locator(f'#area-detail g.counter[data-unit="{unit}"]').click()
            if page.locator("#confirm").count() == 0:
                page.locator(f'#actions button[data-action="deploy {unit}"]').click()
            before = confirm(page)
            clicked_units += 1
            wait_my_turn(page, before)
            if "to PTL" in buttons(page):          # a box is picked by clicking it too
                open_area(page, area_of(game_board(page, web), unit))
                page.locator('#area-detail .box-row[data-box="PTL"]').dispatch_event("click")
                page.wait_for_selector("#confirm")
                assert page.locator("#choice code").inner_text() == "to PTL"
                boxes_clicked = 1
                page.click("#clear")
            dest = next(a.split()[1] for a in buttons(page) if a.startswith("to ")
                        and a.split()[1] not in ("PTL", "OPS", "UG", "OC"))
            page.locator(f'g.area-node[data-area="{dest}"] g.area-label').click()
            if page.locator("#confirm").count() == 0:
                page.locator("#actions button.act").first.click()
            before = confirm(page)
        else:
            quick = [a for a in acts if a in ("done", "pass", "go", "no-react", "psp 0")]
            page.locator(f'#actions button[data-action="{(quick or acts)[0]}"]').click()
            before = confirm(page)
        if not wait_my_turn(page, before):
            break
    assert start_turn is not None and turn >= 2, "a full turn was not played"
    assert placed_by_click == 3 and clicked_units == 1 and boxes_clicked == 1
    assert odds_seen and any(ch.isdigit() for ch in odds_seen[0])
    shoot(page, "algeria-board.png", full_page=True)
    before_ply = ply(page)
    before_svg = page.locator("#algeria-board").inner_html()
    page.reload()
    page.wait_for_selector("#algeria-board")
    wait_my_turn(page)
    assert ply(page) == before_ply
    assert page.locator("#algeria-board").inner_html() == before_svg


TABLE_POINT = """([x, y]) => {
  const svg = document.getElementById('skirmish-table');
  const depth = parseFloat(svg.dataset.depth);
  const p = svg.createSVGPoint(); p.x = x * 6; p.y = (depth - y) * 6;
  const q = p.matrixTransform(svg.getScreenCTM());
  return [q.x, q.y];
}"""


def table_click(page, x: float, y: float) -> None:
    sx, sy = page.evaluate(TABLE_POINT, [x, y])
    page.mouse.click(sx, sy)


def element_click(page, label: str) -> None:
    page.locator(f'g.element[data-element="{label}"] polygon').first.dispatch_event("click")


def test_skirmish_move_and_shot_on_the_table_then_reload(page, web):
    r = httpx.post(web.url + "/api/games", json={
        "game": "skirmish", "scenario": "ambush", "seed": 5,
        "seats": {"french": "human", "insurgents": "matrix"}, "title": "e2e skirmish"})
    page.goto(web.url + r.json()["links"]["french"])
    page.wait_for_selector("#skirmish-table")
    wait_my_turn(page)
    moved = shot = None
    board = None
    for _ in range(150):
        if moved and shot:
            break
        acts = buttons(page)
        board = httpx.get(f"{web.url}/api/games/{r.json()['id']}").json()["board"]
        els = {e["label"]: e for e in board["elements"]}
        shots = [a for a in acts if a.split()[0] == "shoot"]
        moves = [a for a in acts if a.split()[0] in ("move", "sprint")]
        activations = [a for a in acts if a.split()[0] == "activate"
                       and els[a.split()[1]]["on_table"]]
        shots = [a for a in shots if els[a.split()[1]]["on_table"]]
        moves = [a for a in moves if els[a.split()[1]]["on_table"]]
        if shots and not shot:
            firer, target = shots[0].split()[1:3]
            element_click(page, firer)
            element_click(page, target)
            if page.locator("#confirm").count() == 0:
                page.locator(f'#actions button[data-action="{shots[0]}"]').click()
            page.wait_for_selector("#odds", timeout=10_000)
            shot = page.locator("#odds").inner_text()
            shoot(page, "skirmish-shot-odds.png", full_page=True)
            before = confirm(page)
        elif moves and not moved:
            words = moves[0].split()
            label, tx, ty = words[1], float(words[2]), float(words[3])
            e = els[label]
            element_click(page, label)
            page.wait_for_selector("#move-range")
            # a point of our own choosing: half-way to a destination the rules offer
            mx, my = round((e["x"] + tx) / 2, 1), round((e["y"] + ty) / 2, 1)
            table_click(page, mx, my)
            page.wait_for_selector("#confirm")
            chosen = page.locator("#choice code").inner_text()
            assert chosen.startswith(f"move {label} ") or chosen.startswith(f"sprint {label} ")
            shoot(page, "skirmish-move-range.png", full_page=True)
            before = ply(page)
            page.locator("#confirm").click()
            page.wait_for_timeout(300)
            if page.locator("#error").count():            # that spot was not legal
                element_click(page, label)
                page.locator(f'circle.dest[data-action="{moves[0]}"]').dispatch_event("click")
                page.wait_for_selector("#confirm")
                before = confirm(page)
            else:
                while ply(page) == before:
                    page.wait_for_timeout(30)
            moved = chosen
        elif activations and not moved:
            label = activations[-1].split()[1]
            element_click(page, label)
            if page.locator("#confirm").count() == 0:
                page.locator(f'#actions button[data-action="activate {label}"]').click()
            before = confirm(page)
        else:
            quick = [a for a in acts if a.split()[0] in ("ready", "pass", "wait", "hold", "end",
                                                         "endphase")]
            page.locator(f'#actions button[data-action="{(quick or acts)[0]}"]').click()
            before = confirm(page)
        if not wait_my_turn(page, before):
            break
    assert moved, "no move was made on the table"
    assert shot and "hit on" in shot
    shoot(page, "skirmish-table.png", full_page=True)
    before_ply = ply(page)
    before_svg = page.locator("#skirmish-table").inner_html()
    page.reload()
    page.wait_for_selector("#skirmish-table")
    wait_my_turn(page)
    assert ply(page) == before_ply
    assert page.locator("#skirmish-table").inner_html() == before_svg


def test_replay_of_an_uploaded_record_step_by_step(page, web, tmp_path):
    g = httpx.post(web.url + "/api/games", json={
        "game": "skirmish", "scenario": "search", "seed": 2,
        "seats": {"french": "random", "insurgents": "random"}}).json()
    deadline = time.time() + 30
    while httpx.get(f"{web.url}/api/games/{g['id']}").json()["ply"] < 12:
        assert time.time() < deadline
        time.sleep(0.1)
    rec = httpx.get(f"{web.url}/api/games/{g['id']}/record").content
    path = tmp_path / "record.json"
    path.write_bytes(rec)
    page.goto(web.url + "/")
    page.set_input_files("#record-file", str(path))
    page.select_option("#record-mode", "replay")
    page.click("#upload")
    page.wait_for_selector("a.watch-link")
    page.click("a.watch-link")
    page.wait_for_selector("#replay-range")
    total = int(page.locator("#ply").inner_text())
    assert total >= 12
    page.click("text=|<")
    page.wait_for_function("() => document.getElementById('replay-at').textContent === '0'")
    first = page.locator("#skirmish-table").inner_html()
    for n in range(1, 4):
        page.click("#replay-next")
        page.wait_for_function(
            f"() => document.getElementById('replay-at').textContent === '{n}'")
    assert page.locator("#actions button.act").count() == 0
    page.click("text=>|")
    page.wait_for_function(
        f"() => document.getElementById('replay-at').textContent === '{total}'")
    assert page.locator("#skirmish-table").inner_html() != first


def _hot_seat_ambush(page, web) -> None:
    """A new ambush with both sides human, opened hot-seat, the French to act."""
    page.goto(web.url + "/")
    page.select_option("#new-game", "skirmish")
    page.select_option("#new-scenario", "ambush")
    page.select_option("#seat-french", "human")
    page.select_option("#seat-insurgents", "human")
    page.click("#create")
    page.click("a.hotseat-link")
    page.wait_for_selector("#skirmish-table")
    wait_my_turn(page)


def test_hot_seat_on_one_screen(page, web):
    _hot_seat_ambush(page, web)
    assert "FRENCH" in page.locator("#status").inner_text().split("To act")[0].split("You:")[1]
    page.locator('#actions button[data-action="ready"]').click()
    before = confirm(page)
    wait_my_turn(page, before)
    you = page.locator("#status").inner_text().split("You:")[1].split("To act")[0]
    assert "INSURGENTS" in you
    page.reload()
    page.wait_for_selector("#skirmish-table")
    wait_my_turn(page)
    assert "INSURGENTS" in page.locator("#status").inner_text().split("You:")[1]


def test_a_late_answer_never_steps_the_board_back(page, web):
    """A load started before an action can answer after it: the page keeps the newer view."""
    _hot_seat_ambush(page, web)
    page.evaluate("""async () => {
        const r = await fetch('/api/games/' + G.id, {headers: {'X-Seat-Token': G.token}});
        window.lateAnswer = await r.text(); }""")
    page.locator('#actions button[data-action="ready"]').click()
    before = confirm(page)
    wait_my_turn(page, before)
    first = buttons(page)[0]
    page.locator(f'#actions button[data-action="{first}"]').click()
    page.wait_for_selector("#confirm")
    page.evaluate("""async () => {
        const real = window.fetch;
        window.fetch = async () => new Response(window.lateAnswer, {status: 200});
        try { await load(); } finally { window.fetch = real; } }""")
    assert ply(page) == before + 1
    assert page.locator("#choice code").inner_text() == first


def test_undo_button_takes_back_an_action_until_a_die_is_rolled(page, web):
    g = httpx.post(web.url + "/api/games", json={
        "game": "algeria", "scenario": "1958", "seats": {"fln": "human", "gov": "human"}}).json()
    page.goto(f"{web.url}/g/{g['id']}#seat={g['seats']['gov']}")
    page.wait_for_selector("#algeria-board")
    wait_my_turn(page)
    assert page.locator("#undo").is_disabled()                  # nothing played yet
    page.locator('#actions button[data-action="place fr_xx I-1"]').click()
    confirm(page)
    page.wait_for_selector("#undo:not([disabled])")
    shoot(page, "undo.png")
    page.click("#undo")
    page.wait_for_function("() => document.getElementById('ply').textContent === '0'")
    page.locator('#actions button[data-action="place auto"]').click()
    confirm(page)                                               # rolls dice: no way back
    page.wait_for_selector("#undo[disabled]")
    assert "rolled dice" in page.locator("#undo").get_attribute("title")


def test_a_refused_live_feed_is_not_asked_again(page, web):
    """The server closes the feed of a game it does not have with code 4404: the page says
    so and does not reconnect (every 1.5 s, forever, as it would after a network cut)."""
    sockets = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(web.url + "/g/nosuchgame")
    page.wait_for_function("() => document.getElementById('conn').textContent.startsWith"
                           "('not live')")
    assert "no game" in page.locator("#main").inner_text()
    assert page.locator("#conn").inner_text() == "not live: no such game"
    page.wait_for_timeout(3500)                 # two reconnection delays
    assert len(sockets) == 1, sockets


def test_odds_on_the_board_give_each_react_the_government_may_choose(browser, web):
    """8-6, 9.23, 11.11-2: choosing a Propaganda shows its odds with each React the GOV
    may answer with (each unit, each Air Point), the figures of the terminal's."""
    from djebel.algeria.position import from_position
    from djebel.core.records import make_record

    pos = {"scenario": "1958", "turn": 2, "phase": "operations", "ap": 4,
           "air": {"max": 1, "available": 1},
           "areas": {"II-1": {"OPS": ["cadre"], "PTL": ["police", "al_x!"]},
                     "II-2": {"OPS": ["el_x!^"]}}}
    rec = make_record(from_position(pos, seed=1), full=True)
    r = httpx.post(web.url + "/api/records", json={
        "record": rec, "mode": "continue", "seats": {"fln": "human", "gov": "heuristic"}})
    assert r.status_code == 201, r.text
    with checked_page(browser, 1400, 900) as page:
        page.goto(web.url + r.json()["links"]["fln"])
        page.wait_for_selector("#algeria-board")
        wait_my_turn(page)
        page.locator('#actions button[data-action="propaganda cadre1"]').click()
        page.wait_for_selector("#odds", timeout=10_000)
        odds = " ".join(page.locator("#odds").inner_text().split())
        shoot(page, "algeria-react-odds.png")
    assert odds == (
        "Propaganda in II-1: MST DRM -2 -> 0+:33% 1+:17% 1:33% 2:17% (mean N 0.83); "
        "if the GOV reacts (9.23): cadre1 evades 67%; if not evaded: FLN fire 1: hits "
        "0:83% 1:17%; GOV fire 5 (al_x1): hits 1:33% 2:50% 3:17%; +1 Air: hits 1:25% "
        "2:33% 3:25% 4:8% 5:8%; GOV fire 9 (el_x1) (+0-1 Air): hits 1:17% 2:17% 3:33% "
        "4:17% 5:17%")
