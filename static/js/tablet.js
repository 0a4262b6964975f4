/* Player tablet: the live state (the tournament's stream, else polling a state version with ETag / 304), the
 * countdown on the
 * server's clock, the board, the slip and its outbox, the receipt and the results, the assisted mode.
 *
 * The glue of the shared parts: text.js, coords.js, clock.js, board.js, session.js, outbox.js, slip.js,
 * assist.js, receipt.js (loaded before this file). Texts come translated from the page (JSON blocks).
 *
 * A slip being typed is kept on the tablet (localStorage, per round) until it is handed in, so a reload does not
 * lose it; logging out asks first; between two rounds the tablet says when the arbiter is typing the rack drawn
 * from the bag (a sign of his console, state.rack_typing_until).
 */
(function () {
  "use strict";
  var D = window.Duplicate, T = D.text, byId = T.byId, el = T.el, fmt = T.fmt;

  var POLL_MS = 1000;
  var POLL_OFFLINE_MS = 2500;
  // while the stream is up (its pings every 30 s prove it), a poll now and then checks the version: 10,000
  // tablets at one every two minutes are ~85 requests a second, spread (90–150 s) so that tablets that
  // connected together do not check together
  var POLL_STREAMING_MS = 120000;

  if (byId("tablet-config")) tabletPage();

  // -- the tablet ---------------------------------------------------------------------------------------------
  function tabletPage() {
    var cfg = T.readJson("tablet-config"), S = T.readJson("tablet-strings"), B = cfg.board;
    var token = D.session.token();
    if (!token) { location.replace(cfg.urls.login); return; }
    D.session.keep(token);

    var ANSWER_KEY = "duplicate.tablet.answer." + cfg.slug + "." + cfg.table;
    var BOARD_KEY = "duplicate.tablet.board." + cfg.slug;
    var DRAFT_KEY = "duplicate.tablet.draft." + cfg.slug + "." + cfg.table;  // the slip typed, not handed in yet
    var offBoardAsked = null;  // a slip running off the board handed in once: the second press sends it
    var state = null, etag = null, online = true, stopped = false, pollTimer = null;
    var answer = T.load(ANSWER_KEY, null);  // the server's last answer to a slip of ours
    var formRound = null, lastPhase = null, highlight = [];
    var chosen = null;  // the start square tapped: {row, col}
    var clock = D.clock.create();
    var board = D.board.create(byId("board"), B, {onSquare: onSquare});
    board.draw("");
    var slip = D.slip.create({config: B, strings: S, changed: function () { renderBoard(); saveDraft(); }});
    var outbox = D.outbox.create({
      storageKey: "duplicate.tablet.outbox." + cfg.slug + "." + cfg.table, url: cfg.urls.slip, token: token, lang: cfg.lang,
      settled: settled, loggedOut: loggedOut, changed: function () { if (state) renderReceipt(); }
    });
    var assist = D.assist.create({
      config: B, strings: S, lang: cfg.lang, url: cfg.urls.assist, token: token, rack: rackTiles,
      changed: function () { renderRack(); renderBoard(); },
      use: function (move) { slip.fill(move.word, move.coordinates, move.score); renderBoard(); saveDraft(); }
    });
    var receipt = D.receipt.create({config: B, strings: S, lang: cfg.lang});

    function phaseOf() {
      var r = state && state.round;
      if (!state) return "loading";
      if (!r) return "none";
      if (r.status === "drawn") return "drawn";
      if (r.status === "open") return clock.passed(r.deadline) ? "over" : "open";
      return r.status === "published" ? "published" : "over";
    }
    /** Between two rounds (or before the first), the arbiter is typing the rack he drew from the bag: until the
     * draw, or until his sign runs out on the server's clock. */
    function typing() {
      var until = state && state.rack_typing_until, phase = phaseOf();
      return !!until && (phase === "published" || phase === "none") && !clock.passed(until);
    }
    function phaseKey() { return phaseOf() + (typing() ? "+typing" : ""); }

    // -- network and polling ----------------------------------------------------------------------------------
    function setOnline(value) {
      var was = online, net = byId("net");
      online = value;
      net.dataset.state = value ? "online" : "offline";
      net.querySelector(".label").textContent = value ? S.online : S.offline;
      if (value && !was && outbox.waiting() && !outbox.sending) outbox.resume();
    }
    function schedule(ms) {
      clearTimeout(pollTimer);
      if (!stopped) pollTimer = setTimeout(poll, ms);
    }
    function poll() {
      var t0 = Date.now(), headers = {"Accept": "application/json"};
      if (etag) headers["If-None-Match"] = etag;
      fetch(cfg.urls.version, {cache: "no-store", headers: headers}).then(function (r) {
        clock.sampleResponse(r, t0, Date.now());
        if (r.status !== 304 && !r.ok) throw new Error("version " + r.status);
        setOnline(true);
        outbox.nudge();
        var tag = r.headers.get("ETag");
        if (r.status === 200 && tag !== etag && !T.olderTag(tag, etag)) {
          return r.json().then(function (body) {
            if (openedNow(body && body.round)) { etag = tag; render(); return; }
            return loadState(tag, etag !== null);
          }, function () { return loadState(tag, etag !== null); });
        }
      }).catch(function () {
        setOnline(false);
      }).then(function () {
        schedule(!online ? POLL_OFFLINE_MS : stream.up ? POLL_STREAMING_MS * (0.75 + Math.random() * 0.5) : POLL_MS + Math.random() * 150);
      });
    }
    function news(body) {
      // an event of the stream: its version's ETag when it is newer than what the tablet shows, else null
      if (!body || !body.version || stopped) return null;
      var tag = '"' + body.version + '"';
      setOnline(true);
      outbox.nudge();
      return tag === etag || T.olderTag(tag, etag) ? null : tag;
    }
    function pushed(body) {
      // the same answer as a poll's 200: the open from it, else the tablet's state fetched
      var tag = news(body);
      if (!tag) return;
      if (openedNow(body.round)) { etag = tag; render(); return; }
      loadState(tag, etag !== null).catch(function () { schedule(0); });
    }
    function own(body) {
      // the stream brought this tablet's whole state (any change but an open): no request needed
      var tag = news(body);
      if (!tag) return;
      state = body;
      etag = tag;
      byId("status").dataset.via = "stream";  // how the state came (the tests and a curious arbiter read it)
      render();
    }
    var stream = D.stream.create({url: cfg.urls.stream, onState: pushed, onOwn: own, onChange: function (up) {
      if (!up) schedule(0);  // the stream broke: poll at once, then every second
    }});
    function openedNow(n) {
      // the round we show as drawn has opened: the poll's answer has the rack and the deadline, and
      // nothing of ours can have changed (no slip is taken before the open), so no request is needed
      var r = state && state.round;
      if (!r || !n || n.id !== r.id || r.status !== "drawn" || n.status !== "open" || !n.rack || !n.deadline) return false;
      r.status = "open";
      r.rack = n.rack;
      r.deadline = n.deadline;
      r.accepting_slips = !clock.passed(n.deadline);
      r.seconds_left = clock.left(n.deadline);
      return true;
    }
    var loading = null;  // the state request on its way: {key: its version, done: its promise}
    function loadState(tag, spread) {
      // the first poll and the stream's first event name the same version: one request for both (a hall of
      // 10,000 tablets logging in would ask twice as often)
      var key = tag ? String(tag).replace(/^W\//, "").replace(/"/g, "") : null;
      if (loading && key && loading.key === key) return loading.done;
      // 1,500 tablets see a change within the same second: spread their state requests a little
      var done = T.wait(spread ? Math.random() * 200 : 0).then(function () {
        var t0 = Date.now();
        var url = cfg.urls.state + (key ? "?v=" + encodeURIComponent(key) : "");
        return fetch(url, {cache: "no-store", headers: {"Authorization": "Tablet " + token, "Accept": "application/json"}})
          .then(function (r) {
            var t1 = Date.now();
            if (r.status === 401 || r.status === 403) { loggedOut(); return; }
            if (!r.ok) throw new Error("state " + r.status);
            return r.json().then(function (body) {
              clock.sample(D.clock.parseTime(body.server_time), t0, t1);
              // the stream may have brought this version, or a newer one, while the request was on its way:
              // a late answer never takes the tablet back
              var got = body.version ? '"' + body.version + '"' : null;
              if (state && got && etag && (got === etag || T.olderTag(got, etag))) return;
              state = body;
              byId("status").dataset.via = "request";
              // the version this answer shows (never older than the poll's): no second fetch for it
              if (body.version) etag = '"' + body.version + '"';
              else if (tag) etag = tag;
              render();
            });
          });
      });
      var mine = {key: key, done: done}, clear = function () { if (loading === mine) loading = null; };
      loading = mine;
      done.then(clear, clear);
      return done;
    }
    function loggedOut() {
      stopped = true;
      clearTimeout(pollTimer);
      stream.close();
      outbox.stop();
      var box = byId("logged-out") || el("div", "tb-overlay"), card = el("div", "card");
      box.id = "logged-out";
      box.innerHTML = "";
      card.appendChild(el("p", "", S.logged_out + (outbox.waiting() ? " " + S.login_again : "")));
      var a = card.appendChild(el("a", "button tb-big-button", S.log_in));
      a.href = cfg.urls.login + "?expired=1&hall=" + encodeURIComponent(cfg.slug);
      box.appendChild(card);
      document.body.appendChild(box);
    }

    // -- rendering --------------------------------------------------------------------------------------------
    function render() {
      var phase = phaseOf(), r = state.round, typed = typing();
      lastPhase = phaseKey();
      if (r && formRound !== r.id) newRound(r);
      byId("status").dataset.phase = phase;
      byId("status").dataset.typing = typed ? "1" : "";
      document.querySelector(".tb-layout").dataset.phase = phase;
      byId("round-label").textContent = r ? fmt(S.game_round, {game: r.game, round: r.number}) : "\u00a0";
      var drawn = r && S["status_drawn_" + r.rack_source] || S.status_drawn;
      byId("phase").textContent = typed ? S.status_typing : state.game_over ? S.game_over : {
        none: S.status_none, drawn: drawn, open: topping() ? S.topping_status : S.status_open, over: S.status_closed,
        published: S.status_published, loading: ""
      }[phase] || "";
      renderRack();
      renderRedraws();
      renderGameOver();
      renderBoard();
      renderForm();
      renderReceipt();
      renderTopping();
      receipt.result(byId("result"), state, phase);
      tick();
    }
    function newRound(r) {
      formRound = r.id;
      chosen = null;
      assist.reset();
      byId("chooser").hidden = true;
      offBoardAsked = null;
      var kept = state.slip && state.slip.round === r.id ? state.slip : null;
      var pending = outbox.forRound(r.id).pop();
      var draft = T.load(DRAFT_KEY, null);  // typed before a reload and not handed in: newer than any slip sent
      if (draft && draft.round !== r.id) { T.save(DRAFT_KEY, null); draft = null; }
      var source = draft ? {word: draft.word, coordinates: draft.coordinates, announced_score: draft.score} :
        pending ? {word: pending.word, coordinates: pending.coordinates, announced_score: pending.score} : kept;
      slip.fill(source ? source.word : "", source ? source.coordinates : "", source ? source.announced_score : null);
    }
    /** Keeps what the player is typing (per round) until he hands it in: a reload (F5) puts it back. */
    function saveDraft() {
      var r = state && state.round;
      if (!r || phaseOf() !== "open") return;
      var d = slip.typed();
      T.save(DRAFT_KEY, d.word || d.coordinates.trim() || d.score.trim() ?
        {round: r.id, word: d.word, coordinates: d.coordinates, score: d.score} : null);
    }
    function rackTiles() {
      var r = state && state.round;
      return r && r.rack ? Array.from(r.rack) : [];
    }
    function renderRack() {
      var box = byId("rack"), tiles = rackTiles(), assisted = state.tournament.assisted_mode && phaseOf() === "open";
      box.innerHTML = "";
      box.classList.toggle("eight", tiles.length > 7);  // the 7-among-8 game: smaller tiles, one line
      var typed = typing();  // the next rack is being typed: empty tiles, as before its open
      box.hidden = !!state.game_over && !typed;  // the game is over: no rack any more
      if (state.game_over && !typed) return;
      if (typed) tiles = [];
      if (!tiles.length) {
        var size = state.round && state.round.rack_size || B.rack_size;  // a 7-among-8 game's rack: 8
        box.classList.toggle("eight", size > 7);
        for (var i = 0; i < size; i++) box.appendChild(el("span", "tile empty"));
        return;
      }
      tiles.forEach(function (letter, i) {
        var t = D.board.tile(B, letter, false, true);
        if (letter === "?") t.classList.add("joker");
        if (assist.used(i)) t.classList.add("used");
        if (assisted) {
          t.setAttribute("role", "button");
          t.tabIndex = 0;
          if (assist.selected === i) t.classList.add("selected");
          t.addEventListener("click", function () { assist.select(i); });
        }
        box.appendChild(t);
      });
      var hint = byId("assist-hint");
      hint.hidden = !assisted;
      hint.textContent = S.assist_hint;
    }

    /** RULES §4: every rack that went back into the bag is shown, with why. */
    function renderRedraws() {
      // the racks redrawn before this round's rack; none while the next rack is typed (the rack shown is empty)
      var box = byId("redraws"), r = state.round, list = r && !typing() && r.redraws || [];
      box.innerHTML = "";
      list.forEach(function (d) {
        box.appendChild(el("p", "tb-redraw", "↺ " + fmt(S.redrawn, {rack: d.rack,
          reason: S.redraw_reasons[d.reason] || d.reason})));
      });
      box.hidden = !list.length;
    }
    /** The end of the game: why, and the player's final total and rank. */
    function renderGameOver() {
      var box = byId("game-over"), end = state.game_over;
      box.innerHTML = "";
      box.hidden = !end;
      if (!end) return;
      box.appendChild(el("h2", "", fmt(S.game_over_n, {game: end.game})));
      var why = S.end_reasons[end.reason] || end.reason;
      box.appendChild(el("p", "tb-end-reason", T.capital(end.note ? why + ": " + end.note : why)));  // a line of its own
      if (end.total == null) return;
      var figures = box.appendChild(el("dl", "tb-res-figures"));
      var rows = end.time_total != null ?  // topping: the total time ranks, the points come after
        [[S.topping_total_time, D.clock.format(end.time_total), ""],
         [S.final_rank, end.time_rank, fmt(S.of_players, {n: end.players})],
         [S.final_total, end.total, fmt(S.top_total, {n: end.top_total})]] :
        [[S.final_total, end.total, fmt(S.top_total, {n: end.top_total})],
         [S.final_rank, end.rank, fmt(S.of_players, {n: end.players})]];
      rows.forEach(function (f) {
        var d = figures.appendChild(el("div"));
        d.appendChild(el("dt", "", f[0]));
        var dd = d.appendChild(el("dd", "", String(f[1])));
        if (f[2]) dd.appendChild(el("small", "muted", " " + f[2]));
      });
      receipt.tournament(box, state.tournament_result);
    }

    // -- board: the last move highlighted, the slip typed or the tiles placed as ghosts -----------------------
    function updateHighlight(fen) {
      var kept = T.load(BOARD_KEY, null);
      if (kept && kept.fen === fen) { highlight = kept.highlight || []; return; }
      var fresh = kept ? D.board.newSquares(kept.fen, fen) : [];
      highlight = fresh.length > 15 ? [] : fresh;  // more than a move: another game, no highlight
      T.save(BOARD_KEY, {fen: fen, highlight: highlight});
    }
    function renderBoard() {
      if (!state) return;
      var fen = state.board || "", ghosts = {};
      updateHighlight(fen);
      if (assist.placed.length) ghosts = assist.ghosts();
      else if (phaseOf() === "open") ghosts = slip.ghosts();
      board.draw(fen, {fresh: highlight, ghosts: ghosts, start: chosen});
      slip.hint();  // a word that runs off the board is said while it is typed
    }
    function onSquare(r, c, sq) {
      if (phaseOf() !== "open") return;
      if (state.tournament.assisted_mode && assist.tap(r, c, sq.classList.contains("has-tile"))) return;
      chosen = {row: r, col: c};
      D.coords.fillFormat(byId("chooser-text"), S.start_square, {sq: D.coords.text(B, r, c, false)}, ["sq"]);
      D.coords.fill(byId("choose-h"), D.coords.text(B, r, c, false) + " → " + S.horizontal);
      D.coords.fill(byId("choose-v"), D.coords.text(B, r, c, true) + " ↓ " + S.vertical);
      byId("chooser").hidden = false;
      renderBoard();
    }
    function chooseDirection(vertical) {
      if (!chosen) return;
      byId("slip-coords").value = D.coords.text(B, chosen.row, chosen.col, vertical);
      chosen = null;
      byId("chooser").hidden = true;
      renderBoard();
      saveDraft();
      if (!byId("slip-word").value) byId("slip-word").focus();
    }

    // -- the slip -----------------------------------------------------------------------------------------------
    function hasReceipt() {
      var r = state && state.round;
      if (!r) return false;
      if (answer && answer.round === r.id && answer.status === "received") return true;
      return !!(state.slip && state.slip.round === r.id && state.slip.is_current);
    }
    function renderForm() {
      var phase = phaseOf(), open = phase === "open", banner = byId("over-banner");
      // over: nothing can change, the receipt says what counts; topping: a player who found the top is done
      byId("slip-form").hidden = phase === "none" || phase === "published" || phase === "loading" || phase === "over" ||
        !!toppingAnswer().topped;
      slip.enable(open);
      byId("slip-score").closest(".tb-field").hidden = topping();  // topping: the points are the server's
      byId("slip-submit").textContent = topping() ? S.topping_try : hasReceipt() ? S.replace : S.hand_in;
      banner.hidden = phase !== "over";
      banner.textContent = S.time_over_long;
      if (!open) { byId("chooser").hidden = true; byId("assist").hidden = true; chosen = null; }
      slip.hint();
    }
    function onSubmit(e) {
      e.preventDefault();
      if (phaseOf() !== "open") { render(); return; }
      var typed = slip.read();
      if (!typed) return;
      var off = slip.offBoard(), text = JSON.stringify(typed), left = clock.left(state.round.deadline);
      if (off && offBoardAsked !== text && (left === null || left > 10)) {
        // the word runs off the board (#slip-hint says how): sent when he presses again (at once in the last 10 s)
        offBoardAsked = text;
        slip.message(fmt(S.off_board_again, {button: byId("slip-submit").textContent}), "warn");
        return;
      }
      offBoardAsked = null;
      typed.round = state.round.id;
      outbox.add(typed);  // kept before anything is sent: a slip is never lost
      T.save(DRAFT_KEY, null);  // handed in: the outbox keeps it now
    }
    function settled(result) {
      T.save(ANSWER_KEY, result);
      show(result);
    }
    function show(result) {
      answer = result;
      if (result.status === "received" && state && state.round && state.round.id === result.round) state.slip = result.slip;
      if (state) { renderForm(); renderReceipt(); renderTopping(); }
    }
    function renderReceipt() {
      receipt.slip(byId("receipt"), {state: state, phase: phaseOf(), answer: answer, outbox: outbox, topping: topping()});
    }

    // -- topping: each attempt answered at once (the top and the time, or try again) ------------------------
    function topping() { return !!(state && state.round && state.round.variant === "topping"); }
    function toppingAnswer() {
      // the server's latest word on our attempts of this round: its answer to our last one, else the state's slip
      var r = state && state.round;
      if (!r || !topping()) return {};
      var mine = answer && answer.round === r.id && answer.status === "received" ? answer.slip : null;
      var server = state.slip && state.slip.round === r.id && !state.slip.late ? state.slip : null;
      if (server && server.topped) return server;
      if (mine && (!server || mine.version >= server.version)) return mine;
      return server || {};
    }
    function renderTopping() {
      var box = byId("topping"), a = toppingAnswer(), phase = phaseOf();
      box.innerHTML = "";
      box.className = "card tb-topping";
      box.hidden = !topping() || a.topped == null;  // published too: the time stays above the points
      if (box.hidden) return;
      if (a.topped) {
        box.classList.add("ok");
        box.appendChild(el("p", "tb-topping-head", "✔ " + S.topping_top));
        box.appendChild(el("p", "tb-topping-time", fmt(S.topping_time, {time: D.clock.format(a.seconds || 0)})));
        if (!state.game_over) box.appendChild(el("p", "small muted", S.topping_done));  // over: no next rack comes
      } else {
        box.classList.add("bad");
        box.appendChild(el("p", "tb-topping-head", "✖ " + (phase === "open" ? S.topping_not_top : S.topping_missed)));
        var move = D.coords.slip(B, a.coordinates, a.word, null);  // in the tournament's rows, the letter drawn apart
        D.coords.fillFormat(box.appendChild(el("p")), a.points == null ? S.topping_invalid : S.topping_points,
          {move: move, points: a.points == null ? "" : T.points(S.points, a.points, cfg.lang)}, ["move"]);
      }
    }

    // -- countdown ----------------------------------------------------------------------------------------------
    function tick() {
      if (!state) return;
      var phase = phaseOf(), box = byId("clock"), r = state.round, text = "", left = null;
      if (phase === "open" || phase === "over") left = clock.left(r.deadline);
      else if (phase === "drawn") left = r.seconds_per_move || state.tournament.seconds_per_move;
      if (left !== null) text = D.clock.format(left);
      if (phase === "over" && r) text = "0:00";
      box.textContent = text;
      box.dataset.level = phase !== "open" ? "idle" : D.clock.level(left);
      box.setAttribute("aria-label", phase === "over" ? S.time_over : text);
      if (phaseKey() !== lastPhase) render();
    }

    // -- logging out: asked first, in the page's words (not the browser's own dialog) --------------------------
    function askLogout() {
      if (byId("logout-confirm")) return;
      var box = el("div", "tb-overlay"), card = box.appendChild(el("div", "card tb-confirm"));
      box.id = "logout-confirm";
      card.setAttribute("role", "alertdialog");
      card.setAttribute("aria-modal", "true");
      card.appendChild(el("p", "", outbox.waiting() ? S.confirm_logout : S.logout_question));
      var buttons = card.appendChild(el("div", "tb-confirm-buttons"));
      var stay = buttons.appendChild(el("button", "secondary", S.stay));
      var leave = buttons.appendChild(el("button", "danger", S.log_out));
      stay.type = leave.type = "button";
      stay.id = "logout-no";
      leave.id = "logout-yes";
      stay.addEventListener("click", function () { box.remove(); byId("logout").focus(); });
      leave.addEventListener("click", function () {
        D.session.forget();
        location.replace(cfg.urls.login + "?hall=" + encodeURIComponent(cfg.slug));  // the login page in the hall's language
      });
      box.addEventListener("keydown", function (e) { if (e.key === "Escape") stay.click(); });
      document.body.appendChild(box);
      stay.focus();
    }

    // -- wiring -------------------------------------------------------------------------------------------------
    // An example row without a look-alike of a digit (Г/D, not З/H: "38" must never be read for "З8").
    byId("slip-coords").placeholder = D.coords.text(B, 3, 7, false) + " / " + D.coords.text(B, 3, 7, true);
    byId("slip-form").addEventListener("submit", onSubmit);
    byId("slip-coords").addEventListener("input", function () { renderBoard(); saveDraft(); });
    byId("slip-score").addEventListener("input", saveDraft);
    byId("choose-h").addEventListener("click", function () { chooseDirection(false); });
    byId("choose-v").addEventListener("click", function () { chooseDirection(true); });
    byId("choose-x").addEventListener("click", function () { chosen = null; byId("chooser").hidden = true; renderBoard(); });
    byId("logout").addEventListener("click", askLogout);
    window.addEventListener("storage", function (e) {  // another tab of this tablet got the answer to a slip
      var other = e.key === ANSWER_KEY && T.load(ANSWER_KEY, null);
      if (other && !stopped) show(other);
    });
    window.addEventListener("online", function () { outbox.resume(); schedule(0); });
    window.addEventListener("offline", function () { setOnline(false); });
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { schedule(0); outbox.flush(); } });
    setInterval(function () {
      tick();
      if (outbox.waiting() && !outbox.sending && state) renderReceipt();
    }, 250);

    poll();  // the first answer has no If-None-Match: 200 → the state is loaded
    outbox.flush();
  }
})();
