"""In the browser, a game over days: "my games" built from the seats this browser holds,
and the chat and notepad beside the board. Screenshots at 1400 x 900 go to
tests/artifacts/."""

from __future__ import annotations

import httpx
from test_browser import browser, shoot, web  # noqa: F401 - the fixtures

VIEWPORT = {"width": 1400, "height": 900}


def context(browser, web):  # noqa: F811
    ctx = browser.new_context(viewport=VIEWPORT)
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=web.url)
    return ctx


def watch(pg) -> dict:
    """Page errors and every address the page asks for (a seat token is never in one)."""
    seen = {"errors": [], "urls": []}
    pg.on("pageerror", lambda e: seen["errors"].append(str(e)))
    pg.on("request", lambda r: seen["urls"].append(r.url))
    return seen


def create(web, **body) -> dict:  # noqa: F811
    r = httpx.post(web.url + "/api/games", json=body, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()


def test_my_games_lists_the_seats_this_browser_holds(browser, web):  # noqa: F811
    ctx = context(browser, web)
    pg = ctx.new_page()
    seen = watch(pg)
    # a game created in the lobby: its seat link is kept even though it is never opened
    pg.goto(web.url + "/")
    pg.select_option("#new-game", "algeria")
    pg.select_option("#new-scenario", "1958")
    pg.select_option("#seat-fln", "human")
    pg.select_option("#seat-gov", "heuristic")
    pg.fill("#new-title", "Wilaya IV, by letter")
    pg.click("#create")
    pg.wait_for_selector('input.seat-link[data-side="fln"]')
    created = pg.locator('input.seat-link[data-side="fln"]').input_value()
    # a game opened by its seat link, waiting for this seat; another one over
    sk = create(web, game="skirmish", scenario="ambush", seed=3, title="Oued crossing",
                seats={"french": "human", "insurgents": "human"})
    pg.goto(web.url + sk["links"]["french"])
    pg.wait_for_selector("#skirmish-table")
    pg.click("#nav-my")
    pg.wait_for_selector("#my-table")
    rows = pg.locator("tr.my-row")
    assert rows.count() == 2
    alg_id = created.split("/g/")[1].split("#")[0]
    alg = pg.locator(f'tr.my-row[data-game="{alg_id}"]')
    assert "Wilaya IV, by letter" in alg.inner_text() and "created here" in alg.inner_text()
    assert alg.locator("input.seat-link").input_value() == created
    fr = pg.locator(f'tr.my-row[data-game="{sk["id"]}"]')
    state = httpx.get(f"{web.url}/api/games/{sk['id']}").json()
    if state["active"] == "french":
        assert "your turn" in fr.inner_text() and "your-turn" in fr.get_attribute("class")
    else:
        assert "INSURGENTS" in fr.locator("td.to-act").inner_text()
    assert fr.locator("input.seat-link").input_value() == web.url + sk["links"]["french"]
    # the link copied again
    fr.locator("button.copy-link").click()
    pg.wait_for_function("() => [...document.querySelectorAll('button.copy-link')]"
                         ".some(b => b.textContent === 'copied')")
    assert pg.evaluate("navigator.clipboard.readText()") == web.url + sk["links"]["french"]
    pg.wait_for_function("() => !!document.querySelector('tr.my-row.your-turn') || "
                         "document.querySelectorAll('tr.my-row').length === 2")
    shoot(pg, "my-games.png")
    # forgotten in this browser, once confirmed: gone from the list, still on the server
    answers = [False, True]
    asked = []
    pg.on("dialog", lambda d: (asked.append(d.message), d.accept() if answers.pop(0)
                               else d.dismiss()))
    alg.locator("button.forget").click()
    assert pg.locator("tr.my-row").count() == 2
    alg.locator("button.forget").click()
    pg.wait_for_function("() => document.querySelectorAll('tr.my-row').length === 1")
    pg.reload()
    pg.wait_for_selector("#my-table")
    assert pg.locator("tr.my-row").count() == 1
    assert httpx.get(f"{web.url}/api/games/{alg_id}").status_code == 200
    assert len(asked) == 2 and asked[0].startswith("Forget this seat in this browser?")
    tokens = [sk["seats"]["french"], created.split("#seat=")[1]]
    assert not any(t in u for t in tokens for u in seen["urls"]), seen["urls"]
    assert not seen["errors"], seen["errors"]
    ctx.close()


def test_chat_live_between_the_players_and_a_private_notepad(browser, web):  # noqa: F811
    g = create(web, game="skirmish", scenario="ambush", seed=7, title="Ambush, by letter",
               seats={"french": "human", "insurgents": "human"})
    ctxs = [context(browser, web) for _ in range(3)]
    fr, ins, watcher = (c.new_page() for c in ctxs)
    seen = [watch(p) for p in (fr, ins, watcher)]
    fr.goto(web.url + g["links"]["french"])
    ins.goto(web.url + g["links"]["insurgents"])
    watcher.goto(web.url + g["watch"])
    for p in (fr, ins, watcher):
        p.wait_for_selector("#skirmish-table")
        p.wait_for_selector("#chat")
    assert watcher.locator("#chat-text").is_hidden() and watcher.locator("#notepad").is_hidden()
    # the insurgents start typing; a move by whoever is to act does not lose it
    ins.fill("#chat-text", "half a thought")
    active = httpx.get(f"{web.url}/api/games/{g['id']}").json()["active"]
    mover = fr if active == "french" else ins
    before = int(mover.locator("#ply").inner_text())
    mover.locator("#actions button.act").first.click()
    mover.wait_for_function(f"() => document.getElementById('confirm') || "
                            f"parseInt(document.getElementById('ply').textContent) > {before}")
    if mover.locator("#confirm").count():          # (a single legal action needs none)
        mover.locator("#confirm").click()
    for p in (fr, ins):
        p.wait_for_function(f"() => parseInt(document.getElementById('ply').textContent) > "
                            f"{before}")
    assert ins.locator("#chat-text").input_value() == "half a thought"
    # the page of the side to act says so in its title, the other's does not
    now = httpx.get(f"{web.url}/api/games/{g['id']}").json()["active"]
    to_act, waiting = (fr, ins) if now == "french" else (ins, fr)
    to_act.wait_for_function("() => document.title.startsWith('\u25CF Your turn - ')")
    assert waiting.title() == "Ambush, by letter - djebel"
    # this server sends no notices, and the seat is told so
    fr.click("#notices summary")
    assert "This server sends no notices" in fr.locator("#notices").inner_text()
    # a message from the French, live on the other pages
    fr.fill("#chat-text", "Bonjour. Nous passons l'oued a l'aube.")
    fr.click("#chat-send")
    for p in (fr, ins, watcher):
        p.wait_for_selector(".chat-msg .chat-text")
        assert p.locator(".chat-msg").count() == 1
        assert "passons l'oued" in p.locator(".chat-msg .chat-text").inner_text()
    ins.fill("#chat-text", "<b>Nous</b> vous attendons.")
    ins.press("#chat-text", "Enter")
    fr.wait_for_function("() => document.querySelectorAll('.chat-msg').length === 2")
    assert fr.locator(".chat-msg .chat-text").nth(1).inner_text() == "<b>Nous</b> vous attendons."
    assert fr.locator(".chat-msg b").count() == 0               # text, never markup
    # the notepad, saved and read back after a reload
    fr.click("#notepad summary")
    fr.fill("#notepad-text", "Their RR is on the ridge: smoke first.")
    fr.click("#notepad-save")
    fr.wait_for_function("() => document.getElementById('notepad-state').textContent"
                         ".includes('saved')")
    shoot(fr, "chat.png")
    fr.reload()
    fr.wait_for_selector(".chat-msg")
    fr.wait_for_function("() => document.getElementById('notepad-text').value !== ''")
    assert fr.locator("#notepad-text").input_value() == "Their RR is on the ridge: smoke first."
    assert fr.locator(".chat-msg").count() == 2
    ins.click("#notepad summary")
    assert ins.locator("#notepad-text").input_value() == ""
    for s in seen:
        assert not s["errors"], s["errors"]
        assert not any(t in u for t in g["seats"].values() for u in s["urls"])
    for c in ctxs:
        c.close()
