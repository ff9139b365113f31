// djebel web client, games played over days: the "my games" page built from the seat
// links this browser holds, the players' chat, the seat's private notepad and its turn
// notices. Uses el() and api() of app.js; no inline script or style anywhere.
"use strict";

const Days = (() => {
  const CREATED = "djebel-created";        // seat links created in this browser's lobby
  const SEATS = "djebel-seats-";           // + game id: {side: token} opened in this browser
  // the browser's own question box (app.js names its confirming of an action confirm())
  const ask = window.confirm.bind(window);

  function readJson(key, fallback) {
    try { const v = JSON.parse(localStorage.getItem(key) || "null"); return v === null ? fallback : v; }
    catch (e) { return fallback; }
  }

  // Every seat link the lobby hands out is kept here too, so that it is never lost when
  // the page is left: "my games" lists it until it is forgotten.
  function keepCreated(id, seats) {
    const list = readJson(CREATED, []).filter(x => x.id !== id);
    for (const [side, token] of Object.entries(seats)) list.push({ id, side, token, at: Date.now() });
    localStorage.setItem(CREATED, JSON.stringify(list.slice(-200)));
  }

  // The seats held: {id, side, token, opened}, one per token.
  function held() {
    const out = new Map();
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(SEATS)) continue;
      const id = key.slice(SEATS.length);
      for (const [side, token] of Object.entries(readJson(key, {}))) out.set(token, { id, side, token, opened: true });
    }
    for (const c of readJson(CREATED, [])) {
      if (!out.has(c.token)) out.set(c.token, { id: c.id, side: c.side, token: c.token, opened: false });
    }
    return [...out.values()];
  }

  function forget(seat) {
    const key = SEATS + seat.id;
    const mine = readJson(key, {});
    for (const [side, token] of Object.entries(mine)) if (token === seat.token) delete mine[side];
    if (Object.keys(mine).length) localStorage.setItem(key, JSON.stringify(mine)); else localStorage.removeItem(key);
    localStorage.setItem(CREATED, JSON.stringify(readJson(CREATED, []).filter(x => x.token !== seat.token)));
  }

  function seatLink(seat) { return location.origin + "/g/" + seat.id + "#seat=" + seat.token; }

  async function copy(text, input, button) {
    let ok = false;
    try { await navigator.clipboard.writeText(text); ok = true; } catch (e) { ok = false; }
    if (!ok && input) { input.select(); try { ok = document.execCommand("copy"); } catch (e) { ok = false; } }
    button.textContent = ok ? "copied" : "select and copy";
  }

  function ago(t) {
    const s = Math.max(0, Date.now() / 1000 - t);
    if (s < 90) return "just now";
    if (s < 5400) return Math.round(s / 60) + " min ago";
    if (s < 129600) return Math.round(s / 3600) + " h ago";
    return Math.round(s / 86400) + " days ago";
  }

  // ---------------------------------------------------------------- my games
  async function myGames() {
    const panel = el("div", { class: "panel mygames", id: "my-games" });
    $main.replaceChildren(panel);
    await fillMyGames(panel);
    if (!Days.timer) Days.timer = setInterval(() => { if (document.getElementById("my-games")) fillMyGames(panel); }, 60000);
  }

  async function fillMyGames(panel) {
    const seats = held();
    const summaries = [];
    for (let i = 0; i < seats.length; i += 50) {        // the API answers 50 seats at a time
      const r = await api("POST", "/api/seats", { tokens: seats.slice(i, i + 50).map(x => x.token) });
      summaries.push(...(r.status === 200 ? r.data.seats : seats.slice(i, i + 50).map(() => undefined)));
    }
    const rows = seats.map((seat, i) => ({ seat, sum: summaries[i] }));
    rows.sort((a, b) => (b.sum && b.sum.your_turn ? 1 : 0) - (a.sum && a.sum.your_turn ? 1 : 0)
      || ((b.sum && b.sum.updated) || 0) - ((a.sum && a.sum.updated) || 0));
    const turns = rows.filter(x => x.sum && x.sum.your_turn).length;
    document.title = (turns ? "(" + turns + ") " : "") + "My games - djebel";
    const head = el("div", { class: "mygames-head" }, el("h2", {}, "My games"),
      el("span", { class: "small", id: "my-turns" }, turns ? turns + " waiting for you" : "none waiting for you"),
      el("button", { id: "my-refresh", onclick: () => fillMyGames(panel) }, "Refresh"));
    if (!rows.length) {
      panel.replaceChildren(head, el("p", { class: "small", id: "my-empty" },
        "No seat in this browser yet. The seat links you create in the lobby or open are kept here."));
      return;
    }
    const table = el("table", { class: "games", id: "my-table" },
      el("tr", {}, ...["game", "you", "to act", "last action", "actions", "updated", "seat link", ""].map(h => el("th", {}, h))));
    for (const { seat, sum } of rows) table.append(row(seat, sum, panel));
    panel.replaceChildren(head, el("p", { class: "small" },
      "The seats this browser holds: the links you created (hand each to its player) and those you opened. " +
      "Each link is the only key to its side: keep it to yourself."), table);
  }

  function row(seat, sum, panel) {
    const link = seatLink(seat);
    const input = el("input", { type: "text", readonly: "", value: link, class: "seat-link" });
    const copyBtn = el("button", { class: "copy-link" }, "copy");
    copyBtn.onclick = () => copy(link, input, copyBtn);
    const forgetBtn = el("button", { class: "forget", title: "forget this seat in this browser" }, "forget");
    forgetBtn.onclick = () => {
      if (!ask("Forget this seat in this browser? Its link is not shown here again; the game goes on.")) return;
      forget(seat); fillMyGames(panel);
    };
    const attrs = { class: "my-row" + (sum && sum.your_turn ? " your-turn" : ""), "data-game": seat.id, "data-side": seat.side };
    if (sum === null || sum === undefined) {
      return el("tr", attrs, el("td", {}, el("code", {}, seat.id)), el("td", {}, sideBadge(seat.side)),
        el("td", { colspan: 4, class: "small" }, sum === null ? "no such seat on this server" : "could not be read"),
        el("td", {}, input, copyBtn), el("td", {}, forgetBtn));
    }
    const toAct = sum.over
      ? el("span", { class: "over" }, "over: " + ((sum.result && sum.result.winner) || "draw").toUpperCase())
      : sum.your_turn ? el("b", { class: "turn-mark" }, "your turn") : sum.active ? sideBadge(sum.active) : "-";
    const opposite = Object.entries(sum.seats).filter(([s]) => s !== sum.side)
      .map(([, st]) => st.kind === "bot" ? "bot " + st.bot : "human").join(", ");
    return el("tr", attrs,
      el("td", {}, el("a", { href: "/g/" + seat.id + "#seat=" + seat.token, class: "open-game" }, sum.title),
        el("div", { class: "small" }, sum.game + " against " + opposite + (seat.opened ? "" : " - created here"))),
      el("td", {}, sideBadge(seat.side)),
      el("td", { class: "to-act" }, toAct),
      el("td", { class: "last" }, sum.last_action ? el("code", {}, sum.last_action) : "-",
        sum.last_event ? el("div", { class: "small" }, sum.last_event) : null),
      el("td", {}, sum.ply),
      el("td", { class: "small" }, ago(sum.updated)),
      el("td", { class: "linkcell" }, input, copyBtn),
      el("td", {}, forgetBtn));
  }

  // ---------------------------------------------------------------- game page
  // The panels are made once per page and kept across renders, so that what is being
  // typed survives the other side's moves.
  const P = { root: null, list: null, last: 0, seen: new Set() };

  function panels() {
    if (P.root) return P.root;
    P.list = el("div", { class: "chat-list", id: "chat-list" });
    P.input = el("textarea", { id: "chat-text", maxlength: 1000, rows: 2, placeholder: "a message to the other player" });
    P.send = el("button", { id: "chat-send" }, "Send");
    P.send.onclick = sendChat;
    P.input.addEventListener("keydown", (ev) => { if (ev.key === "Enter" && !ev.shiftKey) { ev.preventDefault(); sendChat(); } });
    P.err = el("div", { class: "error", id: "chat-error" });
    P.form = el("div", { class: "chat-form" }, P.input, P.send);
    P.chat = el("div", { class: "panel chat", id: "chat" }, el("b", {}, "Chat"),
      el("span", { class: "small" }, " between the players; watchers read it"), P.list, P.err, P.form);
    P.note = el("textarea", { id: "notepad-text", maxlength: 10000, rows: 5, placeholder: "only you can read this" });
    P.noteState = el("span", { class: "small", id: "notepad-state" });
    const save = el("button", { id: "notepad-save" }, "Save");
    save.onclick = saveNotepad;
    P.notepad = el("details", { class: "panel notepad", id: "notepad" }, el("summary", {}, "Private notepad"),
      P.note, el("div", {}, save, P.noteState));
    P.notices = el("details", { class: "panel notices", id: "notices" }, el("summary", {}, "Turn notices"));
    P.root = el("div", { class: "days" }, P.chat, P.notepad, P.notices);
    return P.root;
  }

  function showMessage(m) {
    if (P.seen.has(m.id)) return;
    P.seen.add(m.id);
    P.last = Math.max(P.last, m.id);
    const when = new Date(m.at * 1000);
    const row = el("div", { class: "chat-msg", "data-id": m.id }, sideBadge(m.side), " ",
      el("span", { class: "small" }, when.toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })),
      el("div", { class: "chat-text" }, m.text));
    // in the order they were taken: a message from another server process may arrive
    // after a later one taken by this page's own
    const later = [...P.list.children].find(c => Number(c.dataset.id) > m.id);
    P.list.insertBefore(row, later || null);
    P.list.scrollTop = P.list.scrollHeight;
  }

  async function loadChat() {
    const r = await api("GET", "/api/games/" + G.id + "/chat?after=" + P.last);
    if (r.status === 200) for (const m of r.data.messages) showMessage(m);
  }

  async function sendChat() {
    const text = P.input.value.trim();
    if (!text || !G.token) return;
    const r = await api("POST", "/api/games/" + G.id + "/chat", { text }, G.token);
    if (r.status === 201) { P.input.value = ""; P.err.textContent = ""; showMessage(r.data); }
    else P.err.textContent = (r.data && r.data.error) || ("error " + r.status);
  }

  async function saveNotepad() {
    const r = await api("PUT", "/api/games/" + G.id + "/notepad", { text: P.note.value }, G.token);
    P.noteState.textContent = r.status === 200 ? " saved" : " " + ((r.data && r.data.error) || "error " + r.status);
  }

  async function loadSeat() {
    const n = await api("GET", "/api/games/" + G.id + "/notepad", undefined, G.token);
    if (n.status === 200) { P.note.value = n.data.text; P.noteState.textContent = ""; }
    const r = await api("GET", "/api/games/" + G.id + "/notices", undefined, G.token);
    if (r.status === 200) noticeForm(r.data);
  }

  function noticeForm(cur) {
    const summary = el("summary", {}, "Turn notices" + (cur.webhook || cur.email ? " (on)" : ""));
    const kids = [summary];
    if (!cur.available.webhook && !cur.available.email) {
      kids.push(el("p", { class: "small" }, "This server sends no notices (its operator can turn on webhooks and e-mail)."));
      P.notices.replaceChildren(...kids);
      return;
    }
    kids.push(el("p", { class: "small" }, "Be told when your turn comes (once a turn) and when the game ends."));
    const hook = el("input", { type: "text", id: "notice-webhook", value: cur.webhook, placeholder: "https://... (a JSON POST)" });
    const mail = el("input", { type: "text", id: "notice-email", value: cur.email, placeholder: "you@example.org" });
    const withLink = el("input", { type: "checkbox", id: "notice-seat-link" });
    withLink.checked = cur.seat_link;
    const state = el("span", { class: "small", id: "notice-state" });
    if (cur.available.webhook) kids.push(el("label", {}, "Webhook"), hook);
    if (cur.available.email) kids.push(el("label", {}, "E-mail"), mail);
    kids.push(el("label", { class: "plain" }, withLink, " put my secret seat link in the notices (else the game's link)"));
    const save = el("button", { id: "notice-save" }, "Save");
    save.onclick = async () => {
      const body = { webhook: cur.available.webhook ? hook.value.trim() : "",
        email: cur.available.email ? mail.value.trim() : "", seat_link: withLink.checked };
      const r = await api("PUT", "/api/games/" + G.id + "/notices", body, G.token);
      if (r.status === 200) { noticeForm(r.data); P.notices.open = true; document.getElementById("notice-state").textContent = " saved"; }
      else state.textContent = " " + ((r.data && r.data.error) || "error " + r.status);
    };
    kids.push(el("div", {}, save, state));
    P.notices.replaceChildren(...kids);
  }

  let seatShown = null;
  let chatLoaded = false;
  // After each render of the game page: the seat's own panels only for a seat, and the
  // page's title saying whether it is your turn.
  function afterRender(v) {
    const mine = !!v.you && v.mode !== "replay";
    P.form.hidden = !mine;
    P.notepad.hidden = !mine;
    P.notices.hidden = !mine;
    if (!chatLoaded) { chatLoaded = true; loadChat(); }
    if (mine && seatShown !== G.token) { seatShown = G.token; loadSeat(); }
    const yours = v.you && v.active === v.you && !v.over;
    document.title = (yours ? "\u25CF Your turn - " : "") + v.title + " - djebel";
  }

  function onLive(m) {
    if (m.type === "chat") { if (P.root) showMessage(m.message); return true; }
    if (m.type === "hello" && P.root) loadChat();       // reconnected: what was missed
    return false;
  }

  return { keepCreated, myGames, panels, afterRender, onLive, held };
})();
