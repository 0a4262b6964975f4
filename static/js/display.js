/* Hall display: its state on each event of the tournament's stream, else polled (ETag / 304) about once a
 * second; redraws itself when the round
 * changes; the countdown runs on the server's clock (offset from X-Server-Time). The glue of text.js,
 * coords.js, clock.js and board.js (loaded before this file). */
(function () {
  "use strict";
  var D = window.Duplicate, T = D.text, byId = T.byId, el = T.el, fmt = T.fmt;
  var POLL_MS = 1000;
  var POLL_STREAMING_MS = 10000;  // while the stream is up, a poll now and then checks it
  var cfg = T.readJson("display-config"), S = T.readJson("display-strings"), B = cfg.board;
  var state = null, etag = null, failures = 0;
  var clock = D.clock.create();
  var board = D.board.create(byId("board"), B);
  board.draw("");

  function points(n) { return T.points(S.points, n, cfg.lang); }

  function phaseOf() {
    if (!state) return "loading";
    var r = state.round, g = state.game;
    if (g && g.status === "finished" && state.standings) return "standings";
    if (!r) return "none";
    if (r.status === "open") return clock.passed(r.deadline) ? "closed" : "open";
    return r.status === "reviewed" ? "judged" : r.status;
  }

  /** Between two rounds (or before the first), the arbiter is typing the rack he drew from the bag: until the
   * draw, or until his sign runs out on the server's clock (as the tablets say it). */
  function typing(phase) {
    var until = state && state.rack_typing_until;
    return !!until && (phase === "published" || phase === "none") && !clock.passed(until);
  }

  function render() {
    var phase = phaseOf(), r = state.round, g = state.game;
    byId("display").dataset.phase = phase;
    byId("display").dataset.typing = typing(phase) ? "1" : "";
    byId("round-label").textContent = r && g && phase !== "standings" ? fmt(S.game_round, {game: g.number, round: r.number}) : g ? fmt(S.game, {game: g.number}) : "\u00a0";
    var drawn = r && S["status_drawn_" + r.rack_source] || S.status_drawn;
    var texts = {none: S.status_none, drawn: drawn, open: S.status_open, closed: S.status_closed,
      judged: S.status_judged, published: S.status_published, standings: S.game_over};
    byId("phase").textContent = typing(phase) ? S.status_typing : texts[phase] || "";
    renderRedraws(phase === "standings" ? [] : r && r.redraws || []);
    renderEnd(g && g.status === "finished" ? g : null);
    board.draw(state.board, {fresh: state.last_move || []});
    var rack = byId("rack");
    rack.innerHTML = "";
    if (r && r.rack) Array.from(r.rack).forEach(function (letter) { rack.appendChild(D.board.tile(B, letter, false)); });
    rack.classList.toggle("eight", rack.childNodes.length > 7);  // the 7-among-8 game: eight tiles on the line
    rack.hidden = !rack.childNodes.length;
    var prev = state.previous;
    byId("previous").hidden = !prev;
    if (prev) {
      byId("previous-label").textContent = fmt(S.previous_top, {n: prev.number});
      D.coords.fill(byId("previous-move"), D.coords.move(B, prev.move));
      byId("previous-score").textContent = points(prev.score);
      var replaced = byId("previous-replaced");  // the Joker variant: the blank played is now its letter's tile
      replaced.textContent = Array.from(prev.replaced || "").map(function (l) { return "? \u2192 " + l; }).join(", ");
      replaced.hidden = !prev.replaced;
    }
    byId("previous").classList.toggle("current", phase === "published");
    renderStandings(phase === "standings");
    renderTopped(phase);
    tick();
  }

  // -- topping: how many players have found the top (a top moves no screen version: polled while open) ------
  var topped = {round: null, n: 0, players: 0}, toppedTimer = null;
  function renderTopped(phase) {
    var r = state.round, on = !!(r && r.variant === "topping" && (phase === "open" || phase === "closed"));
    var box = byId("topped");
    box.hidden = !on || topped.round !== r.id;
    if (!box.hidden) box.textContent = T.plural(S.topped, topped.players, cfg.lang, {n: topped.n, total: topped.players});
    if (on && !toppedTimer) pollTopped();
  }
  function pollTopped() {
    var r = state && state.round;
    toppedTimer = null;
    var phase = phaseOf();
    if (!r || r.variant !== "topping" || (phase !== "open" && phase !== "closed")) return;
    fetch(cfg.urls.topped, {cache: "no-store", headers: {"Accept": "application/json"}}).then(function (res) {
      return res.ok ? res.json() : null;
    }).then(function (body) {
      if (body && body.round) { topped = {round: body.round, n: body.topped, players: body.players}; renderTopped(phaseOf()); }
    }).catch(function () {}).then(function () {
      if (!toppedTimer) toppedTimer = setTimeout(pollTopped, 2000);
    });
  }

  /** RULES §4: every rack that went back into the bag is shown, with why. */
  function renderRedraws(list) {
    var box = byId("redraws");
    box.innerHTML = "";
    list.forEach(function (d) {
      box.appendChild(el("div", "dp-redraw", "↺ " + fmt(S.redrawn, {rack: d.rack, reason: S.redraw_reasons[d.reason] || d.reason})));
    });
    box.hidden = !list.length;
  }
  /** The end of the game and why (the arbiter's own words when he ended it). */
  function renderEnd(g) {
    var box = byId("game-end");
    box.hidden = !g;
    if (!g) return;
    var why = S.end_reasons[g.end_reason] || g.end_reason || "";
    byId("game-end-title").textContent = fmt(S.game_over_n, {game: g.number});
    byId("game-end-reason").textContent = T.capital(g.end_note ? (why ? why + ": " : "") + g.end_note : why);
  }

  // -- standings: they scroll by themselves ----------------------------------------------------------
  var scroller = {running: false, pauseUntil: 0, last: 0};
  function renderStandings(show) {
    var box = byId("standings");
    box.hidden = !show;
    byId("live").hidden = show;
    if (!show) return;
    var st = state.standings, several = st.rows.some(function (row) { return row.tournament_total != null; });
    byId("standings-title").textContent = fmt(S.standings, {n: st.game});
    var head = byId("standings-head"), body = byId("standings-rows");
    head.innerHTML = "";
    body.innerHTML = "";
    var tr = el("tr");
    [["#", "num"], [S.player, ""], [S.total, "num"], [S.deficit, "num wide"], ["%", "num"]].concat(several ? [[S.tournament_total, "num wide"]] : [])
      .forEach(function (h) { tr.appendChild(el("th", h[1], h[0])); });
    head.appendChild(tr);
    st.rows.forEach(function (row) {
      var line = el("tr", row.rank <= 3 ? "podium" : "");
      line.appendChild(el("td", "num", String(row.rank)));
      var who = el("td", "name", row.name);
      if (row.club) who.appendChild(el("span", "club", " · " + row.club));
      line.appendChild(who);
      line.appendChild(el("td", "num strong", String(row.total)));
      line.appendChild(el("td", "num", T.number(row.deficit, cfg.lang)));
      line.appendChild(el("td", "num", T.number(row.percentage, cfg.lang, 1)));
      if (several) line.appendChild(el("td", "num", row.tournament_total == null ? "" : String(row.tournament_total)));
      body.appendChild(line);
    });
    byId("standings-foot").textContent = fmt(S.top_total, {n: st.top_total});
    byId("standings-scroll").scrollTop = 0;
    scroller.pauseUntil = performance.now() + 4000;
    if (!scroller.running) { scroller.running = true; requestAnimationFrame(scroll); }
  }
  function scroll(now) {
    var box = byId("standings-scroll");
    if (byId("standings").hidden) { scroller.running = false; return; }
    var dt = scroller.last ? Math.min(100, now - scroller.last) : 0;
    scroller.last = now;
    if (now >= scroller.pauseUntil && box.scrollHeight > box.clientHeight + 2) {
      var before = box.scrollTop;
      scroller.pos = (scroller.pos == null || Math.abs(scroller.pos - before) > 2 ? before : scroller.pos) + dt * 0.04;
      box.scrollTop = scroller.pos;
      if (box.scrollTop + box.clientHeight >= box.scrollHeight - 1) {  // at the bottom: wait, then back to the top
        scroller.pauseUntil = now + 5000;
        setTimeout(function () { box.scrollTop = 0; scroller.pos = 0; scroller.pauseUntil = performance.now() + 4000; }, 4500);
      }
    }
    requestAnimationFrame(scroll);
  }

  // -- countdown and polling ---------------------------------------------------------------------------
  function tick() {
    if (!state) return;
    var phase = phaseOf(), box = byId("clock"), r = state.round, text = "", level = "idle";
    if (r && (phase === "open" || phase === "closed" || phase === "judged")) {
      var left = clock.left(r.deadline) || 0;
      text = D.clock.format(left);
      level = phase !== "open" ? "over" : D.clock.level(left);
    }
    box.textContent = text;
    box.hidden = !text;
    box.dataset.level = level;
    if (byId("display").dataset.phase !== phase || byId("display").dataset.typing !== (typing(phase) ? "1" : "")) render();
  }
  function poll(wanted) {
    var t0 = Date.now(), headers = {"Accept": "application/json"};
    if (etag) headers["If-None-Match"] = etag;
    var url = cfg.urls.state + (wanted ? "?v=" + encodeURIComponent(wanted) : "");
    fetch(url, {cache: "no-store", headers: headers}).then(function (r) {
      clock.sampleResponse(r, t0, Date.now());
      if (r.status === 304) return;
      if (!r.ok) throw new Error("state " + r.status);
      var tag = r.headers.get("ETag");
      if (T.olderTag(tag, etag)) return;  // another server process answering from a memo a moment old
      return r.json().then(function (body) { state = body; etag = tag; render(); });
    }).then(function () {
      failures = 0;
      byId("offline").hidden = true;
    }).catch(function () {
      failures += 1;
      if (failures >= 3) { byId("offline").hidden = false; byId("offline").textContent = S.offline; }
    }).then(function () {
      clearTimeout(pollTimer);
      pollTimer = setTimeout(function () { poll(); }, failures ? 2500 : stream.up ? POLL_STREAMING_MS : POLL_MS);
    });
  }
  var pollTimer = null, pushedVersion = null;
  var stream = D.stream.create({url: cfg.urls.stream, onState: function (body) {
    // an event of the stream: a new version → the display's state now (one request, as a poll)
    if (!body || !body.version || body.version === pushedVersion) return;
    pushedVersion = body.version;
    if (etag !== '"' + body.version + '"') { clearTimeout(pollTimer); poll(body.version); }
  }, onChange: function (up) { if (!up) { clearTimeout(pollTimer); poll(); } }});

  setInterval(tick, 250);
  poll();
})();
