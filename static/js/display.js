/* Hall display: polls its state (ETag / 304) about once a second and redraws itself when the round
 * changes; the countdown runs on the server's clock (offset from X-Server-Time). */
(function () {
  "use strict";

  var POLL_MS = 1000;
  var cfg = JSON.parse(document.getElementById("display-config").textContent);
  var S = JSON.parse(document.getElementById("display-strings").textContent);
  var B = cfg.board;
  var state = null, etag = null, offset = 0, samples = [], grid = null, failures = 0;
  var PREMIUM_TEXT = {tw: "×3", dw: "×2", tl: "3", dl: "2"};

  function $(id) { return document.getElementById(id); }
  function fmt(text, params) {
    return String(text == null ? "" : text).replace(/%\((\w+)\)s/g, function (_m, k) { return params && params[k] != null ? params[k] : ""; });
  }
  function points(forms, n, lang) {  // "%(n)s points" in the plural form of the language
    var a = Math.abs(n), d = a % 10, h = a % 100, few = d >= 2 && d <= 4 && (h < 12 || h > 14), k;
    if (lang === "ru" || lang === "uk") k = d === 1 && h !== 11 ? "1" : few ? "2" : "5";
    else if (lang === "pl") k = a === 1 ? "1" : few ? "2" : "5";
    else if (lang === "fr") k = a <= 1 ? "1" : "2";
    else k = a === 1 ? "1" : "2";
    return fmt(forms[k], {n: n});
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function parseTime(iso) { return iso ? Date.parse(String(iso).replace(/(\.\d{3})\d+/, "$1")) : NaN; }
  function sample(serverMs, t0, t1) {
    if (!isFinite(serverMs)) return;
    samples.push({rtt: t1 - t0, off: serverMs - (t0 + t1) / 2});
    if (samples.length > 12) samples.shift();
    var best = samples[0];
    samples.forEach(function (s) { if (s.rtt < best.rtt) best = s; });
    offset = best.off;
  }
  function serverNow() { return Date.now() + offset; }

  function tile(letter, blank) {
    var t = el("span", "tile" + (blank ? " blank" : ""));
    t.appendChild(el("span", "l", letter === "?" ? "" : blank && letter !== "'" ? letter.toLowerCase() : letter));
    var value = blank || letter === "?" ? B.blank_value : B.values[letter];
    if (value != null) t.appendChild(el("span", "v", String(value)));
    if (B.colours[letter] && !blank) t.dataset.colour = B.colours[letter];
    return t;
  }
  var parseFen = window.DuplicateBoard.parseFen;
  function buildBoard() {
    var box = $("board");
    box.innerHTML = "";
    grid = [];
    box.appendChild(el("span", "lbl"));
    B.cols.forEach(function (c) { box.appendChild(el("span", "lbl", c)); });
    for (var r = 0; r < 15; r++) {
      box.appendChild(el("span", "lbl", B.rows[r]));
      var line = [];
      for (var c = 0; c < 15; c++) {
        var sq = el("span", "sq " + (B.premiums[r][c] || ""));
        box.appendChild(sq);
        line.push(sq);
      }
      grid.push(line);
    }
  }
  function renderBoard() {
    var cells = parseFen(state.board), fresh = {};
    (state.last_move || []).forEach(function (rc) { fresh[rc[0] + "," + rc[1]] = true; });
    for (var r = 0; r < 15; r++) {
      for (var c = 0; c < 15; c++) {
        var sq = grid[r][c], t = cells[r][c];
        sq.innerHTML = "";
        sq.classList.toggle("new", !!(t && fresh[r + "," + c]));
        if (t) sq.appendChild(tile(t.letter, t.blank));
        else if (r === 7 && c === 7) sq.appendChild(el("span", "pl", "★"));
        else if (PREMIUM_TEXT[B.premiums[r][c]]) sq.appendChild(el("span", "pl", PREMIUM_TEXT[B.premiums[r][c]]));
      }
    }
  }

  function localMove(move) {  // the engine writes Latin rows: show the board's own labels (Cyrillic in ru/uk)
    if (!move || !B.cyrillic) return move || "";
    var latin = "ABCDEFGHIJKLMNO";
    return String(move).replace(/^([A-O])(\d{1,2}) |^(\d{1,2})([A-O]) /, function (all, l1, n1, n2, l2) {
      return l1 ? B.rows[latin.indexOf(l1)] + n1 + " " : n2 + B.rows[latin.indexOf(l2)] + " ";
    });
  }

  function phaseOf() {
    if (!state) return "loading";
    var r = state.round, g = state.game;
    if (g && g.status === "finished" && state.standings) return "standings";
    if (!r) return "none";
    if (r.status === "open") {
      var d = parseTime(r.deadline);
      return isFinite(d) && serverNow() >= d ? "closed" : "open";
    }
    return r.status === "reviewed" ? "judged" : r.status;
  }

  function render() {
    var phase = phaseOf(), r = state.round, g = state.game;
    $("display").dataset.phase = phase;
    $("round-label").textContent = r && g && phase !== "standings" ? fmt(S.game_round, {game: g.number, round: r.number}) : g ? fmt(S.game, {game: g.number}) : "\u00a0";
    var texts = {none: S.status_none, drawn: S.status_drawn, open: S.status_open, closed: S.status_closed,
      judged: S.status_judged, published: S.status_published, standings: S.game_over};
    $("phase").textContent = texts[phase] || "";
    renderBoard();
    var rack = $("rack");
    rack.innerHTML = "";
    if (r && r.rack) Array.from(r.rack).forEach(function (letter) { rack.appendChild(tile(letter, false)); });
    rack.hidden = !rack.childNodes.length;
    var prev = state.previous;
    $("previous").hidden = !prev;
    if (prev) {
      $("previous-label").textContent = fmt(S.previous_top, {n: prev.number});
      $("previous-move").textContent = localMove(prev.move);
      $("previous-score").textContent = points(S.points, prev.score, cfg.lang);
    }
    $("previous").classList.toggle("current", phase === "published");
    renderStandings(phase === "standings");
    tick();
  }

  // -- standings: they scroll by themselves ----------------------------------------------------------
  var scroller = {running: false, pauseUntil: 0, last: 0};
  function renderStandings(show) {
    var box = $("standings");
    box.hidden = !show;
    $("live").hidden = show;
    if (!show) return;
    var st = state.standings, several = st.rows.some(function (row) { return row.tournament_total != null; });
    $("standings-title").textContent = fmt(S.standings, {n: st.game});
    var head = $("standings-head"), body = $("standings-rows");
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
      line.appendChild(el("td", "num", String(row.deficit)));
      line.appendChild(el("td", "num", row.percentage.toFixed(1)));
      if (several) line.appendChild(el("td", "num", row.tournament_total == null ? "" : String(row.tournament_total)));
      body.appendChild(line);
    });
    $("standings-foot").textContent = fmt(S.top_total, {n: st.top_total});
    $("standings-scroll").scrollTop = 0;
    scroller.pauseUntil = performance.now() + 4000;
    if (!scroller.running) { scroller.running = true; requestAnimationFrame(scroll); }
  }
  function scroll(now) {
    var box = $("standings-scroll");
    if ($("standings").hidden) { scroller.running = false; return; }
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
    var phase = phaseOf(), clock = $("clock"), r = state.round, text = "", level = "idle";
    if (r && (phase === "open" || phase === "closed" || phase === "judged")) {
      var d = parseTime(r.deadline), left = isFinite(d) ? Math.max(0, Math.ceil((d - serverNow()) / 1000)) : 0;
      text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      level = phase !== "open" ? "over" : left <= 10 ? "red" : left <= 30 ? "orange" : "ok";
    }
    clock.textContent = text;
    clock.hidden = !text;
    clock.dataset.level = level;
    if ($("display").dataset.phase !== phase) render();
  }
  function older(tag, than) {
    var a = parseInt(String(tag || "").replace(/\D*/, ""), 10), b = parseInt(String(than || "").replace(/\D*/, ""), 10);
    return isFinite(a) && isFinite(b) && a < b;
  }
  function poll() {
    var t0 = Date.now(), headers = {"Accept": "application/json"};
    if (etag) headers["If-None-Match"] = etag;
    fetch(cfg.urls.state, {cache: "no-store", headers: headers}).then(function (r) {
      var t1 = Date.now();
      sample(Number(r.headers.get("X-Server-Time")), t0, t1);
      if (r.status === 304) return;
      if (!r.ok) throw new Error("state " + r.status);
      var tag = r.headers.get("ETag");
      if (older(tag, etag)) return;  // another server process answering from a memo a moment old
      return r.json().then(function (body) { state = body; etag = tag; render(); });
    }).then(function () {
      failures = 0;
      $("offline").hidden = true;
    }).catch(function () {
      failures += 1;
      if (failures >= 3) { $("offline").hidden = false; $("offline").textContent = S.offline; }
    }).then(function () {
      setTimeout(poll, failures ? 2500 : POLL_MS);
    });
  }

  buildBoard();
  setInterval(tick, 250);
  poll();
})();
