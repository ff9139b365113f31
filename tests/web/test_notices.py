"""Turn notices over a real server, caught by receivers the tests start on loopback: a
small HTTP server for the webhooks and aiosmtpd for the e-mails (with a login)."""

from __future__ import annotations

import json
import random
import threading
import time
from email import message_from_bytes
from email.policy import default as default_policy
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from server import Server, free_port
from test_api import act, create, view, wait_for

SMTP_USER, SMTP_PASSWORD = "djebel", "s3cret-pass"
# the receiver takes a login over plain SMTP on loopback, as djebel allows there only
pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH while not requiring TLS")


class Receiver:
    """An HTTP server on 127.0.0.1 that keeps the JSON bodies POSTed to it, by path;
    ``/fail`` answers 500 and ``/hang`` holds the request until ``release``."""

    def __init__(self) -> None:
        self.bodies: list[tuple[str, dict]] = []
        self.release = threading.Event()
        self.hung = threading.Event()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):               # noqa: N802 - the library's name
                size = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(size))
                if self.path == "/hang":
                    outer.hung.set()
                    outer.release.wait(30)
                    return
                outer.bodies.append((self.path, body))
                self.send_response(500 if self.path == "/fail" else 204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.http.server_address[1]
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def at(self, path: str) -> list[dict]:
        return [b for p, b in self.bodies if p == path]

    def stop(self) -> None:
        self.release.set()
        self.http.shutdown()
        self.http.server_close()


class Mailbox:
    """What aiosmtpd received, and who logged in."""

    def __init__(self) -> None:
        self.messages: list = []
        self.logins: list[str] = []

    async def handle_DATA(self, server, session, envelope):   # noqa: N802 - aiosmtpd's name
        msg = message_from_bytes(envelope.content, policy=default_policy)
        self.messages.append((envelope.rcpt_tos, msg))
        return "250 OK"

    def authenticate(self, server, session, envelope, mechanism, auth_data):
        from aiosmtpd.smtp import AuthResult

        ok = (auth_data.login, auth_data.password) == (SMTP_USER.encode(),
                                                       SMTP_PASSWORD.encode())
        if ok:
            self.logins.append(auth_data.login.decode())
        return AuthResult(success=ok)


@pytest.fixture(scope="module")
def receiver():
    r = Receiver()
    yield r
    r.stop()


@pytest.fixture(scope="module")
def mailbox():
    controller_mod = pytest.importorskip("aiosmtpd.controller")
    box = Mailbox()
    ctl = controller_mod.Controller(box, hostname="127.0.0.1", port=free_port(),
                                    authenticator=box.authenticate, auth_required=True,
                                    auth_require_tls=False)
    ctl.start()
    box.port = ctl.port
    yield box
    ctl.stop()


@pytest.fixture(scope="module")
def noticing(tmp_path_factory, receiver, mailbox):
    """A server that sends webhooks to 127.0.0.1 only, and e-mail through the mailbox."""
    db = tmp_path_factory.mktemp("notices") / "djebel.db"
    srv = Server(f"sqlite:///{db}", args=(
        "--webhook-allow", "127.0.0.1", "--smtp", f"127.0.0.1:{mailbox.port}",
        "--smtp-from", "djebel@example.org", "--notice-timeout", "3"),
        env={"DJEBEL_SMTP_USER": SMTP_USER, "DJEBEL_SMTP_PASSWORD": SMTP_PASSWORD}).start()
    srv.logs = ""
    yield srv
    err = srv.stop()
    assert "Traceback" not in err, err


@pytest.fixture()
def client(noticing):
    with httpx.Client(base_url=noticing.url, timeout=30) as c:
        yield c


def register(c, gid: str, token: str, **body) -> httpx.Response:
    return c.put(f"/api/games/{gid}/notices", headers={"X-Seat-Token": token}, json=body)


def until(pred, what: str, timeout: float = 30.0):
    """Wait for a notice sent in the background (a deadline, not a measure of speed)."""
    deadline = time.time() + timeout
    while not pred():
        assert time.time() < deadline, f"no {what}"
        time.sleep(0.05)


def turn_changes(game: str, scenario: str, seed: int, actions: list[str], side: str,
                 after: int) -> list[int]:
    """The plies after ``after`` at which the turn came to ``side`` (or, its last action
    not being the last one, the game ended): the same seed and actions, the same game."""
    from djebel.web.service import new_game

    g = new_game(game, scenario, seed, {}, True)
    out = []
    for ply, text in enumerate(actions, start=1):
        acted = g.active_side
        g.apply(text)
        came = g.active_side == side and acted != side
        ended = g.is_over() and acted != side
        if ply > after and (came or ended):
            out.append(ply)
    return out


def test_webhook_told_once_per_turn_without_the_token(client, noticing, receiver):
    g = create(client, game="algeria", scenario="1958", seed=11,
               seats={"fln": "human", "gov": "heuristic"})
    gid, tok = g["id"], g["seats"]["fln"]
    v = wait_for(client, gid, tok, lambda v: v["active"] == "fln")
    registered_at = v["ply"]
    r = register(client, gid, tok, webhook=receiver.url("/fln"))
    assert r.status_code == 200, r.text
    assert r.json()["webhook"] == receiver.url("/fln") and r.json()["seat_link"] is False
    rng = random.Random(4)
    for _ in range(60):
        v = wait_for(client, gid, tok, lambda v: v["over"] or v["active"] == "fln")
        if v["over"]:
            break
        a = rng.choice([x["text"] for x in v["actions"]])
        assert act(client, gid, tok, "fln", a, v["ply"]).status_code == 200
    v = wait_for(client, gid, tok, lambda v: v["over"] or v["active"] == "fln")
    rec = client.get(f"/api/games/{gid}/record").json()
    turns = turn_changes("algeria", "1958", 11, rec["actions"], "fln", registered_at)
    assert len(turns) >= 3, turns
    until(lambda: len(receiver.at("/fln")) >= len(turns), f"{len(turns)} webhooks")
    got = receiver.at("/fln")
    assert sorted(b["ply"] for b in got) == turns            # each turn told once
    body = min(got, key=lambda b: b["ply"])
    assert body["event"] == "turn" and body["side"] == "fln" and body["to_act"] == "fln"
    assert body["game"] == {"id": gid, "kind": "algeria", "title": "algeria 1958"}
    assert body["link"] == f"{noticing.url}/g/{gid}"
    assert body["subject"] == "djebel: your turn in algeria 1958 (FLN)"
    assert body["last_action"] == rec["actions"][body["ply"] - 1]
    assert f"Play: {noticing.url}/g/{gid}" in body["text"]
    assert tok not in json.dumps(got)


def test_seat_link_in_the_notice_only_when_asked(client, noticing, receiver):
    g = create(client, game="skirmish", scenario="ambush", seed=9,
               seats={"french": "human", "insurgents": "human"})
    gid, toks = g["id"], g["seats"]
    for side in toks:
        r = register(client, gid, toks[side], webhook=receiver.url("/" + gid + side),
                     seat_link=side == "insurgents")
        assert r.status_code == 200 and r.json()["seat_link"] == (side == "insurgents")
    rng = random.Random(2)
    while not (receiver.at("/" + gid + "french") and receiver.at("/" + gid + "insurgents")):
        v = view(client, gid)
        side = v["active"]
        v = view(client, gid, toks[side])
        a = rng.choice([x["text"] for x in v["actions"]])
        assert act(client, gid, toks[side], side, a, v["ply"]).status_code == 200
        time.sleep(0.05)
    ins = receiver.at("/" + gid + "insurgents")[0]
    fr = receiver.at("/" + gid + "french")[0]
    assert ins["link"] == f"{noticing.url}/g/{gid}#seat={toks['insurgents']}"
    assert fr["link"] == f"{noticing.url}/g/{gid}"
    for body in (ins, fr):
        assert toks["french"] not in json.dumps(body)
    assert toks["insurgents"] not in json.dumps(fr)
    # the registration shown back never holds the link
    shown = client.get(f"/api/games/{gid}/notices", headers={"X-Seat-Token": toks["insurgents"]})
    assert toks["insurgents"] not in shown.text and shown.json()["seat_link"] is True


def test_e_mail_through_the_smtp_server(client, noticing, mailbox):
    g = create(client, game="algeria", scenario="1958", seed=12,
               seats={"fln": "human", "gov": "heuristic"})
    gid, tok = g["id"], g["seats"]["fln"]
    v = wait_for(client, gid, tok, lambda v: v["active"] == "fln")
    assert register(client, gid, tok, email="fln.player@example.org").status_code == 200
    before = len(mailbox.messages)
    rng = random.Random(8)
    while v["active"] == "fln" and not v["over"]:
        a = rng.choice([x["text"] for x in v["actions"]])
        assert act(client, gid, tok, "fln", a, v["ply"]).status_code == 200
        v = view(client, gid, tok)
    v = wait_for(client, gid, tok, lambda v: v["over"] or v["active"] == "fln")

    def this_turn() -> list:
        # a bot reply inside the FLN's turn may have sent an earlier notice, and notices
        # are sent side by side, so the earlier one may arrive last: find this turn's
        return [m for m in mailbox.messages[before:]
                if f"Actions played: {v['ply']}\n" in m[1].get_content().replace("\r\n", "\n")]

    until(this_turn, "e-mail")
    [(to, msg)] = this_turn()
    assert to == ["fln.player@example.org"]
    assert msg["From"] == "djebel@example.org" and msg["To"] == "fln.player@example.org"
    assert msg["Subject"] == "djebel: your turn in algeria 1958 (FLN)"
    assert msg["X-Djebel-Game"] == gid
    text = msg.get_content().replace("\r\n", "\n")
    assert f"Play: {noticing.url}/g/{gid}\n" in text and f"Actions played: {v['ply']}" in text
    assert tok not in msg.as_string()
    assert mailbox.logins and set(mailbox.logins) == {SMTP_USER}


def test_bad_addresses_are_refused(client, receiver):
    g = create(client, game="skirmish", scenario="hotlz", seed=3,
               seats={"french": "human", "insurgents": "random"})
    gid, tok = g["id"], g["seats"]["french"]
    for url in ("ftp://127.0.0.1/x", "file:///etc/passwd", "javascript:alert(1)",
                "http://example.org/hook",            # not in --webhook-allow
                "http://127.0.0.1.example.org/hook", "http://[::1]/hook",
                "http://127.0.0.1:99999/hook", "http:///nohost", "http://127.0.0.1/a b"):
        r = register(client, gid, tok, webhook=url)
        assert r.status_code == 400 and r.json()["error"].startswith("webhook:"), url
    for addr in ("nobody", "a@b", "a@example.org\nBcc: x@example.org", "A <a@example.org>",
                 "a@example.org, b@example.org", "@example.org"):
        r = register(client, gid, tok, email=addr)
        assert r.status_code == 400 and r.json()["error"].startswith("email:"), addr
    assert register(client, gid, "forged", webhook=receiver.url("/x")).status_code == 403
    assert register(client, gid, tok, webhook=receiver.url("/x"), extra=1).status_code == 422
    shown = client.get(f"/api/games/{gid}/notices", headers={"X-Seat-Token": tok}).json()
    assert shown["webhook"] == "" and shown["email"] == ""
    assert shown["available"] == {"webhook": True, "email": True}


def test_failing_or_hanging_webhooks_block_nothing_and_are_logged(tmp_path, receiver):
    srv = Server(f"sqlite:///{tmp_path / 'hang.db'}",
                 args=("--webhooks", "--notice-timeout", "1")).start()
    try:
        with httpx.Client(base_url=srv.url, timeout=30) as c:
            g = create(c, game="skirmish", scenario="ambush", seed=5,
                       seats={"french": "human", "insurgents": "human"})
            gid, toks = g["id"], g["seats"]
            assert register(c, gid, toks["french"], webhook=receiver.url("/hang")).status_code \
                == 200
            closed = f"http://127.0.0.1:{free_port()}/nobody"
            assert register(c, gid, toks["insurgents"], webhook=closed).status_code == 200
            rng = random.Random(6)
            came = set()                     # the sides the turn has come to
            while not (receiver.hung.is_set() and came == {"french", "insurgents"}):
                v = view(c, gid)
                side = v["active"]
                v = view(c, gid, toks[side])
                a = rng.choice([x["text"] for x in v["actions"]])
                assert act(c, gid, toks[side], side, a, v["ply"]).status_code == 200
                now = view(c, gid)["active"]
                if now != side:
                    came.add(now)
                time.sleep(0.05)
            # the webhook holds its request: the game and its seats are answered meanwhile
            v = view(c, gid)
            side = v["active"]
            v = view(c, gid, toks[side])
            text = v["actions"][0]["text"]
            assert act(c, gid, toks[side], side, text, v["ply"]).status_code == 200
            assert c.get("/api/meta").status_code == 200
            # a webhook that answers 500, for a seat playing a bot
            b = create(c, game="algeria", scenario="1958", seed=3,
                       seats={"fln": "human", "gov": "heuristic"})
            v = wait_for(c, b["id"], b["seats"]["fln"], lambda v: v["active"] == "fln")
            register(c, b["id"], b["seats"]["fln"], webhook=receiver.url("/fail"))
            tok = b["seats"]["fln"]
            while not receiver.at("/fail"):
                v = wait_for(c, b["id"], tok, lambda v: v["active"] == "fln")
                act(c, b["id"], tok, "fln", v["actions"][-1]["text"], v["ply"])
    finally:
        err = srv.stop()
        receiver.release.set()
    assert "Traceback" not in err, err
    assert f"notice to french of game {gid}: ReadTimeout" in err
    assert f"notice to insurgents of game {gid}: ConnectError" in err
    assert f"notice to fln of game {b['id']}: RuntimeError: webhook at 127.0.0.1 answered " \
           "500" in err
    for tok in (*toks.values(), b["seats"]["fln"]):
        assert tok not in err


def test_a_resignation_tells_the_other_seat_the_game_is_over(client, receiver):
    g = create(client, game="algeria", scenario="1958", seed=12,
               seats={"fln": "human", "gov": "human"})
    gid, toks = g["id"], g["seats"]
    for side in ("fln", "gov"):
        assert register(client, gid, toks[side],
                        webhook=receiver.url(f"/resign-{side}")).status_code == 200
    r = client.post(f"/api/games/{gid}/resign", headers={"X-Seat-Token": toks["fln"]},
                    json={"side": "fln"})
    assert r.status_code == 200, r.text
    until(lambda: any(b["event"] == "over" for b in receiver.at("/resign-gov")),
          f"notice of the end to the GOV: {receiver.at('/resign-gov')}")
    over = [b for b in receiver.at("/resign-gov") if b["event"] == "over"]
    assert len(over) == 1 and over[0]["result"]["winner"] == "gov"
    assert not [b for b in receiver.at("/resign-fln") if b["event"] == "over"]


def to_page(mailbox: Mailbox, since: int) -> list:
    """The e-mails since the ``since``-th to the address set in the page (notices of
    other games may come in between)."""
    return [m for m in mailbox.messages[since:] if m[0] == ["fln.page@example.org"]]


def test_a_seat_sets_its_notices_in_the_page_and_both_are_caught(noticing, receiver,
                                                                 mailbox):
    """In Chromium at 1400 x 900: the FLN seat gives a webhook and an e-mail address in
    its Turn notices panel; when the Government has set up, the turn is the FLN's and the
    local receiver and the local SMTP server each catch one notice."""
    from system import CHROMIUM_ARGS, chromium_or_skip
    from test_browser import shoot

    sync_api = pytest.importorskip("playwright.sync_api")
    exe = chromium_or_skip()
    with httpx.Client(base_url=noticing.url, timeout=30) as c:
        g = create(c, game="algeria", scenario="1958", seed=13,
                   seats={"fln": "human", "gov": "human"})
        gid, toks = g["id"], g["seats"]
        mails = len(mailbox.messages)
        with sync_api.sync_playwright() as p:
            b = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
            page = b.new_page(viewport={"width": 1400, "height": 900})
            page.goto(f"{noticing.url}/g/{gid}#seat={toks['fln']}")
            page.wait_for_selector("#algeria-board")
            page.click("#notices summary")
            page.fill("#notice-webhook", receiver.url("/from-the-page"))
            page.fill("#notice-email", "fln.page@example.org")
            page.click("#notice-save")
            page.wait_for_selector("#notice-state:has-text('saved')")
            page.locator("#notices").scroll_into_view_if_needed()
            shoot(page, "notices-set-in-the-page.png")
            b.close()
        assert act(c, gid, toks["gov"], "gov", "place auto", 0).status_code == 200
        until(lambda: receiver.at("/from-the-page"), "webhook")
        until(lambda: to_page(mailbox, mails), "e-mail")
    (hook,) = receiver.at("/from-the-page")
    assert hook["game"]["id"] == gid and hook["side"] == "fln" and hook["to_act"] == "fln"
    [(to, msg)] = to_page(mailbox, mails)
    assert msg["Subject"] == "djebel: your turn in algeria 1958 (FLN)"
