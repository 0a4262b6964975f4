/* Player tablet: login, live state (polling a state version with ETag / 304), a countdown on the
 * server's clock, the slip with an outbox that never loses a slip, the assisted mode.
 *
 * Texts come translated from the page (JSON blocks rendered by the template); nothing here is in
 * a human language except the fallbacks of the formatter.
 */
(function () {
  "use strict";

  var TOKEN_KEY = "duplicate.tablet.token";
  var COOKIE = "tablet_token";
  var COOKIE_AGE = 14 * 24 * 3600;
  var POLL_MS = 1000;
  var POLL_OFFLINE_MS = 2500;
  var LATIN = "ABCDEFGHIJKLMNO";
  var CYRILLIC = "АБВГДЕЖЗИКЛМНОП";

  // -- small helpers ----------------------------------------------------------------------------
  function $(id) { return document.getElementById(id); }
  function readJson(id) { var el = $(id); return el ? JSON.parse(el.textContent) : null; }
  function fmt(text, params) {
    return String(text == null ? "" : text).replace(/%\((\w+)\)s/g, function (_m, k) {
      return params && params[k] != null ? params[k] : "";
    });
  }
  function save(key, value) {
    try {
      if (value === null || value === undefined) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* private mode: the page still works, without the outbox surviving a reload */ }
  }
  function load(key, fallback) {
    try { var v = localStorage.getItem(key); return v === null ? fallback : JSON.parse(v); } catch (e) { return fallback; }
  }
  function setCookie(value, age) {
    document.cookie = COOKIE + "=" + encodeURIComponent(value) + "; Path=/; Max-Age=" + age + "; SameSite=Lax" +
      (location.protocol === "https:" ? "; Secure" : "");
  }
  function getCookie() {
    var m = document.cookie.match(/(?:^|;\s*)tablet_token=([^;]*)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }
  function parseTime(iso) {
    if (!iso) return NaN;
    return Date.parse(String(iso).replace(/(\.\d{3})\d+/, "$1"));
  }
  function clockOf(iso) {  // the server's local time of a timestamp (the hall's time zone)
    var m = /T(\d\d:\d\d:\d\d)/.exec(String(iso || ""));
    return m ? m[1] : "";
  }
  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var s = "";
    for (var i = 0; i < 32; i++) s += Math.floor(Math.random() * 16).toString(16);
    return s.slice(0, 8) + "-" + s.slice(8, 12) + "-" + s.slice(12, 16) + "-" + s.slice(16, 20) + "-" + s.slice(20);
  }
  function jsonOf(response) {
    return response.json().catch(function () { return {}; }).then(function (body) {
      return {status: response.status, body: body || {}};
    });
  }
  function points(forms, n, lang) {  // "%(n)s points" in the plural form of the language
    var a = Math.abs(n), d = a % 10, h = a % 100, few = d >= 2 && d <= 4 && (h < 12 || h > 14), k;
    if (lang === "ru" || lang === "uk") k = d === 1 && h !== 11 ? "1" : few ? "2" : "5";
    else if (lang === "pl") k = a === 1 ? "1" : few ? "2" : "5";
    else if (lang === "fr") k = a <= 1 ? "1" : "2";
    else k = a === 1 ? "1" : "2";
    return fmt(forms[k], {n: n});
  }
  function wait(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }

  document.querySelectorAll("select[data-autosubmit]").forEach(function (select) {
    select.addEventListener("change", function () { select.form.submit(); });
  });

  if ($("login-form")) { loginPage(); return; }
  if ($("tablet-config")) { tabletPage(); }

  // -- login -----------------------------------------------------------------------------------------
  function loginPage() {
    var cfg = readJson("login-config"), S = readJson("login-strings");
    var form = $("login-form"), input = $("login-code"), msg = $("login-message"), button = $("login-submit");

    function show(text, kind) {
      msg.hidden = !text;
      msg.textContent = text || "";
      msg.className = "tb-message " + (kind || "");
    }
    if (!input.value) {
      if (cfg.expired) {
        save(TOKEN_KEY, null);
        show(S.expired, "error");
      } else {
        var kept = load(TOKEN_KEY, null);
        if (kept) {  // logged in before, the cookie went away: put it back
          setCookie(kept, COOKIE_AGE);
          location.replace(cfg.urls.app);
          return;
        }
      }
    }
    function submit(code) {
      code = (code || "").replace(/\s+/g, "");
      if (!code) { input.focus(); return; }
      button.disabled = true;
      show(S.logging_in, "info");
      fetch(cfg.urls.login, {
        method: "POST", cache: "no-store",
        headers: {"Content-Type": "application/json", "Accept": "application/json"},
        body: JSON.stringify({code: code})
      }).then(jsonOf).then(function (res) {
        if (res.status === 200 && res.body.token) {
          save(TOKEN_KEY, res.body.token);
          setCookie(res.body.token, COOKIE_AGE);
          location.replace(cfg.urls.app);
          return;
        }
        button.disabled = false;
        show(res.status === 429 ? S.too_many : S.bad_code, "error");
      }).catch(function () {
        button.disabled = false;
        show(S.network, "error");
      });
    }
    form.addEventListener("submit", function (e) { e.preventDefault(); submit(input.value); });
    if (input.value) {  // /tablet/login/?code=XXXX (QR code): log in at once, and drop the code from the address
      history.replaceState(null, "", location.pathname);
      submit(input.value);
    }
  }

  // -- the tablet ---------------------------------------------------------------------------------------
  function tabletPage() {
    var cfg = readJson("tablet-config"), S = readJson("tablet-strings"), B = cfg.board;
    var token = getCookie() || load(TOKEN_KEY, null);
    if (!token) { location.replace(cfg.urls.login); return; }
    save(TOKEN_KEY, token);
    setCookie(token, COOKIE_AGE);  // stays logged in for the tournament

    var OUTBOX_KEY = "duplicate.tablet.outbox." + cfg.slug + "." + cfg.table;
    var ANSWER_KEY = "duplicate.tablet.answer." + cfg.slug + "." + cfg.table;
    var BOARD_KEY = "duplicate.tablet.board." + cfg.slug;

    var state = null, etag = null, online = true, stopped = false;
    var offset = 0, samples = [];
    var pollTimer = null, retryTimer = null, sending = false, attempt = 0;
    var outbox = load(OUTBOX_KEY, []);
    var answer = load(ANSWER_KEY, null);  // the server's last answer to a slip of ours
    var formRound = null, lastPhase = null;
    var grid = null, highlight = [];
    var blanks = [];  // blank marker: one flag per letter of the word
    var chosen = null;  // start square tapped: {row, col}
    var placed = [], selectedRack = null, assistTimer = null, assistMove = null;

    // -- server clock ------------------------------------------------------------------------
    function sample(serverMs, t0, t1) {
      if (!isFinite(serverMs)) return;
      samples.push({rtt: t1 - t0, off: serverMs - (t0 + t1) / 2});
      if (samples.length > 12) samples.shift();
      var best = samples[0];
      samples.forEach(function (s) { if (s.rtt < best.rtt) best = s; });
      offset = best.off;
    }
    function serverNow() { return Date.now() + offset; }
    function deadlineMs() {
      var r = state && state.round;
      return r && r.deadline ? parseTime(r.deadline) : null;
    }
    function phaseOf() {
      var r = state && state.round;
      if (!state) return "loading";
      if (!r) return "none";
      if (r.status === "drawn") return "drawn";
      if (r.status === "open") {
        var d = deadlineMs();
        return d !== null && serverNow() >= d ? "over" : "open";
      }
      if (r.status === "published") return "published";
      return "over";
    }

    // -- network state -------------------------------------------------------------------------
    function setOnline(value) {
      var was = online;
      online = value;
      var net = $("net");
      net.dataset.state = value ? "online" : "offline";
      net.querySelector(".label").textContent = value ? S.online : S.offline;
      if (value && !was && outbox.length && !sending) { attempt = 0; clearTimeout(retryTimer); flush(); }
    }

    // -- polling ---------------------------------------------------------------------------------
    function schedule(ms) {
      clearTimeout(pollTimer);
      if (!stopped) pollTimer = setTimeout(poll, ms);
    }
    function poll() {
      var t0 = Date.now(), headers = {"Accept": "application/json"};
      if (etag) headers["If-None-Match"] = etag;
      fetch(cfg.urls.version, {cache: "no-store", headers: headers}).then(function (r) {
        sample(Number(r.headers.get("X-Server-Time")), t0, Date.now());
        if (r.status !== 304 && !r.ok) throw new Error("version " + r.status);
        setOnline(true);
        if (outbox.length && !sending && outbox[0].next && outbox[0].next - Date.now() > 2000) flush();
        var tag = r.headers.get("ETag");
        if (r.status === 200 && tag !== etag && !older(tag, etag)) {
          return r.json().then(function (body) {
            if (openedNow(body && body.round)) { etag = tag; render(); return; }
            return loadState(tag, etag !== null);
          }, function () { return loadState(tag, etag !== null); });
        }
      }).catch(function () {
        setOnline(false);
      }).then(function () {
        schedule(online ? POLL_MS + Math.random() * 150 : POLL_OFFLINE_MS);
      });
    }
    function openedNow(n) {
      // the round we show as drawn has opened: the poll's answer has the rack and the deadline, and
      // nothing of ours can have changed (no slip is taken before the open), so no request is needed
      var r = state && state.round;
      if (!r || !n || n.id !== r.id || r.status !== "drawn" || n.status !== "open" || !n.rack || !n.deadline) return false;
      r.status = "open";
      r.rack = n.rack;
      r.deadline = n.deadline;
      r.accepting_slips = serverNow() <= parseTime(n.deadline);
      r.seconds_left = Math.max(0, Math.round((parseTime(n.deadline) - serverNow()) / 1000));
      return true;
    }
    function older(tag, than) {  // another server process answering from a memo a moment old
      var a = parseInt(String(tag || "").replace(/\D*/, ""), 10), b = parseInt(String(than || "").replace(/\D*/, ""), 10);
      return isFinite(a) && isFinite(b) && a < b;
    }
    function loadState(tag, spread) {
      // 1,500 tablets see a change within the same second: spread their state requests a little
      return wait(spread ? Math.random() * 200 : 0).then(function () {
        var t0 = Date.now();
        var url = cfg.urls.state + (tag ? "?v=" + encodeURIComponent(String(tag).replace(/^W\//, "").replace(/"/g, "")) : "");
        return fetch(url, {cache: "no-store", headers: {"Authorization": "Tablet " + token, "Accept": "application/json"}})
          .then(function (r) {
            var t1 = Date.now();
            if (r.status === 401 || r.status === 403) { loggedOut(); return; }
            if (!r.ok) throw new Error("state " + r.status);
            return r.json().then(function (body) {
              sample(parseTime(body.server_time), t0, t1);
              state = body;
              // the version this answer shows (never older than the poll's): no second fetch for it
              if (body.version) etag = '"' + body.version + '"';
              else if (tag) etag = tag;
              render();
            });
          });
      });
    }
    function loggedOut() {
      stopped = true;
      clearTimeout(pollTimer);
      var box = $("logged-out") || el("div", "tb-overlay");
      box.id = "logged-out";
      box.innerHTML = "";
      var card = el("div", "card");
      card.appendChild(el("p", "", S.logged_out + (outbox.length ? " " + S.login_again : "")));
      var a = el("a", "button tb-big-button", S.log_in);
      a.href = cfg.urls.login + "?expired=1";
      card.appendChild(a);
      box.appendChild(card);
      document.body.appendChild(box);
    }

    // -- rendering -------------------------------------------------------------------------------
    function render() {
      var phase = phaseOf(), r = state.round;
      lastPhase = phase;
      if (r && formRound !== r.id) newRound(r);
      $("status").dataset.phase = phase;
      document.querySelector(".tb-layout").dataset.phase = phase;
      $("round-label").textContent = r ? fmt(S.game_round, {game: r.game, round: r.number}) : "\u00a0";
      $("phase").textContent = {
        none: S.status_none, drawn: S.status_drawn, open: S.status_open, over: S.status_closed,
        published: S.status_published, loading: ""
      }[phase] || "";
      renderRack();
      renderBoard();
      renderForm();
      renderReceipt();
      renderResult();
      tick();
    }

    function newRound(r) {
      formRound = r.id;
      placed = []; selectedRack = null; chosen = null; assistMove = null;
      $("chooser").hidden = true;
      var slip = state.slip && state.slip.round === r.id ? state.slip : null;
      var pending = outbox.filter(function (i) { return i.round === r.id; }).pop();
      var source = pending ? {word: pending.word, coordinates: pending.coordinates, announced_score: pending.score} : slip;
      fillForm(source ? source.word : "", source ? source.coordinates : "", source ? source.announced_score : null);
    }

    function tileEl(letter, blank, big) {
      var t = el("span", "tile" + (blank ? " blank" : "") + (big ? " big" : ""));
      var shown = letter === "?" ? "" : (blank && letter !== "'" ? letter.toLowerCase() : letter);
      t.appendChild(el("span", "l", shown));
      var value = blank || letter === "?" ? B.blank_value : B.values[letter];
      if (value != null) t.appendChild(el("span", "v", String(value)));
      if (B.colours[letter] && !blank) t.dataset.colour = B.colours[letter];
      return t;
    }

    function rackTiles() {
      var r = state && state.round;
      return r && r.rack ? Array.from(r.rack) : [];
    }

    function renderRack() {
      var box = $("rack"), phase = phaseOf(), tiles = rackTiles();
      box.innerHTML = "";
      if (!tiles.length) {
        for (var i = 0; i < B.rack_size; i++) box.appendChild(el("span", "tile empty"));
        return;
      }
      var used = {};
      placed.forEach(function (p) { used[p.rackIndex] = true; });
      var assisted = state.tournament.assisted_mode && phase === "open";
      tiles.forEach(function (letter, i) {
        var t = tileEl(letter, false, true);
        if (letter === "?") t.classList.add("joker");
        if (used[i]) t.classList.add("used");
        if (assisted) {
          t.setAttribute("role", "button");
          t.tabIndex = 0;
          if (selectedRack === i) t.classList.add("selected");
          t.addEventListener("click", function () {
            if (used[i]) return;
            selectedRack = selectedRack === i ? null : i;
            renderRack();
          });
        }
        box.appendChild(t);
      });
      var hint = $("assist-hint");
      hint.hidden = !assisted;
      hint.textContent = S.assist_hint;
    }

    // -- board ------------------------------------------------------------------------------------
    var parseFen = window.DuplicateBoard.parseFen;
    function buildBoard() {
      var box = $("board");
      box.innerHTML = "";
      grid = [];
      box.appendChild(el("span", "lbl corner"));
      B.cols.forEach(function (c) { box.appendChild(el("span", "lbl col", c)); });
      for (var r = 0; r < 15; r++) {
        box.appendChild(el("span", "lbl row", B.rows[r]));
        var line = [];
        for (var c = 0; c < 15; c++) {
          var sq = el("span", "sq " + (B.premiums[r][c] || ""));
          sq.dataset.r = r; sq.dataset.c = c;
          sq.setAttribute("role", "gridcell");
          sq.addEventListener("click", onSquare);
          box.appendChild(sq);
          line.push(sq);
        }
        grid.push(line);
      }
    }
    var PREMIUM_TEXT = {tw: "×3", dw: "×2", tl: "3", dl: "2"};
    function updateHighlight(fen) {
      var kept = load(BOARD_KEY, null);
      if (kept && kept.fen === fen) { highlight = kept.highlight || []; return; }
      var before = kept ? parseFen(kept.fen) : null, after = parseFen(fen), fresh = [];
      if (before) {
        for (var r = 0; r < 15; r++) for (var c = 0; c < 15; c++) if (after[r][c] && !before[r][c]) fresh.push([r, c]);
        if (fresh.length > 15) fresh = [];  // another game: no highlight
      }
      highlight = fresh;
      save(BOARD_KEY, {fen: fen, highlight: fresh});
    }
    function renderBoard() {
      if (!grid) buildBoard();
      var fen = state.board || "";
      updateHighlight(fen);
      var cells = parseFen(fen), ghost = ghostTiles(cells), isNew = {};
      highlight.forEach(function (rc) { isNew[rc[0] + "," + rc[1]] = true; });
      for (var r = 0; r < 15; r++) {
        for (var c = 0; c < 15; c++) {
          var sq = grid[r][c], tile = cells[r][c], key = r + "," + c, g = ghost[key];
          sq.innerHTML = "";
          sq.classList.toggle("has-tile", !!tile);
          sq.classList.toggle("new", !!(tile && isNew[key]));
          sq.classList.toggle("start", !!(chosen && chosen.row === r && chosen.col === c));
          sq.classList.toggle("through", !!(g && tile));
          if (tile) {
            sq.appendChild(tileEl(tile.letter, tile.blank));
          } else if (g) {
            var t = tileEl(g.letter, g.blank);
            t.classList.add(g.placed ? "placed" : "ghost");
            sq.appendChild(t);
          } else if (r === 7 && c === 7) {
            sq.appendChild(el("span", "pl", "★"));
          } else if (PREMIUM_TEXT[B.premiums[r][c]]) {
            sq.appendChild(el("span", "pl", PREMIUM_TEXT[B.premiums[r][c]]));
          }
        }
      }
    }
    function ghostTiles(cells) {  // tiles placed in assisted mode, else the typed slip on the board
      var out = {};
      if (placed.length) {
        placed.forEach(function (p) { out[p.row + "," + p.col] = {letter: p.letter, blank: p.blank, placed: true}; });
        return out;
      }
      if (phaseOf() !== "open") return out;
      var where = parseCoords($("slip-coords").value), word = slipLetters();
      if (!where || !word.length) return out;
      word.forEach(function (t, i) {
        var r = where.row + (where.vertical ? i : 0), c = where.col + (where.vertical ? 0 : i);
        if (r < 15 && c < 15) out[r + "," + c] = {letter: t.letter, blank: t.blank};
      });
      return out;
    }
    function coordText(r, c, vertical) {
      if (B.convention === "english") {
        var col = LATIN[c], row = String(r + 1);
        return vertical ? col + row : row + col;
      }
      return vertical ? String(c + 1) + B.rows[r] : B.rows[r] + String(c + 1);
    }
    function localMove(move) {  // the engine writes Latin rows: show the board's own labels (Cyrillic in ru/uk)
      if (!move || !B.cyrillic) return move || "";
      return String(move).replace(/^([A-O])(\d{1,2}) |^(\d{1,2})([A-O]) /, function (all, l1, n1, n2, l2) {
        return l1 ? B.rows[LATIN.indexOf(l1)] + n1 + " " : n2 + B.rows[LATIN.indexOf(l2)] + " ";
      });
    }
    function parseCoords(text) {
      text = (text || "").toUpperCase().replace(/\s+/g, "");
      if (!text) return null;
      var letter, number, letterFirst;
      var m = /^(\D)(\d{1,2})$/.exec(text);
      if (m) { letter = m[1]; number = +m[2]; letterFirst = true; } else {
        m = /^(\d{1,2})(\D)$/.exec(text);
        if (!m) return null;
        letter = m[2]; number = +m[1]; letterFirst = false;
      }
      if (number < 1 || number > 15) return null;
      var index = LATIN.indexOf(letter);
      if (index < 0 && B.cyrillic_input) index = CYRILLIC.indexOf(letter);
      if (index < 0) return null;
      if (B.convention === "english") return {row: number - 1, col: index, vertical: letterFirst};
      return {row: index, col: number - 1, vertical: !letterFirst};
    }

    function onSquare(e) {
      var sq = e.currentTarget, r = +sq.dataset.r, c = +sq.dataset.c;
      if (phaseOf() !== "open") return;
      var assisted = state.tournament.assisted_mode;
      var at = placed.findIndex(function (p) { return p.row === r && p.col === c; });
      if (assisted && at >= 0) {  // take a placed tile back
        placed.splice(at, 1);
        afterPlacement();
        return;
      }
      if (assisted && selectedRack !== null && !sq.classList.contains("has-tile")) {
        var letter = rackTiles()[selectedRack], index = selectedRack;
        selectedRack = null;
        if (letter === "?") {
          pickLetter(function (chosenLetter) {
            if (chosenLetter) placed.push({row: r, col: c, letter: chosenLetter, blank: true, rackIndex: index});
            afterPlacement();
          });
          return;
        }
        placed.push({row: r, col: c, letter: letter, blank: false, rackIndex: index});
        afterPlacement();
        return;
      }
      chosen = {row: r, col: c};
      var chooser = $("chooser");
      $("chooser-text").textContent = fmt(S.start_square, {sq: coordText(r, c, false)});
      $("choose-h").textContent = coordText(r, c, false) + " → " + S.horizontal;
      $("choose-v").textContent = coordText(r, c, true) + " ↓ " + S.vertical;
      chooser.hidden = false;
      renderBoard();
    }
    function chooseDirection(vertical) {
      if (!chosen) return;
      $("slip-coords").value = coordText(chosen.row, chosen.col, vertical);
      chosen = null;
      $("chooser").hidden = true;
      renderBoard();
      var word = $("slip-word");
      if (!word.value) word.focus();
    }

    // -- assisted mode -----------------------------------------------------------------------------
    function pickLetter(done) {
      var box = el("div", "tb-overlay"), card = el("div", "card tb-picker");
      card.appendChild(el("p", "", S.blank_letter));
      var letters = el("div", "tb-picker-letters");
      B.alphabet.forEach(function (letter) {
        var b = el("button", "secondary", letter);
        b.type = "button";
        b.addEventListener("click", function () { box.remove(); done(letter); });
        letters.appendChild(b);
      });
      card.appendChild(letters);
      var cancel = el("button", "", S.cancel);
      cancel.type = "button";
      cancel.addEventListener("click", function () { box.remove(); done(null); });
      card.appendChild(cancel);
      box.appendChild(card);
      document.body.appendChild(box);
    }
    function afterPlacement() {
      renderRack();
      renderBoard();
      assistMove = null;
      var box = $("assist");
      box.hidden = !placed.length;
      $("assist-use").disabled = true;
      $("assist-result").textContent = placed.length ? "…" : "";
      clearTimeout(assistTimer);
      if (placed.length) assistTimer = setTimeout(computeAssist, 150);
    }
    function computeAssist() {
      var body = {cyrillic: !!B.cyrillic, placements: placed.map(function (p) {
        return {row: p.row, col: p.col, letter: p.letter, blank: p.blank};
      })};
      var asked = JSON.stringify(body.placements);
      fetch(cfg.urls.assist, {
        method: "POST", cache: "no-store",
        headers: {"Authorization": "Tablet " + token, "Content-Type": "application/json", "Accept": "application/json"},
        body: JSON.stringify(body)
      }).then(jsonOf).then(function (res) {
        if (asked !== JSON.stringify(placed.map(function (p) { return {row: p.row, col: p.col, letter: p.letter, blank: p.blank}; }))) return;
        var out = $("assist-result");
        if (res.status === 200 && res.body.legal) {
          assistMove = res.body;
          out.textContent = res.body.move + " — " + points(S.points, res.body.score, cfg.lang);
          out.className = "tb-assist-result ok";
          $("assist-use").disabled = false;
        } else {
          assistMove = null;
          out.textContent = res.status === 200 ? (S.placement[res.body.code] || res.body.error || S.assist_error) : S.assist_error;
          out.className = "tb-assist-result bad";
        }
      }).catch(function () {
        $("assist-result").textContent = S.assist_error;
      });
    }
    function useAssist() {
      if (!assistMove) return;
      fillForm(assistMove.word, assistMove.coordinates, assistMove.score);
      placed = []; selectedRack = null; assistMove = null;
      afterPlacement();
    }

    // -- the slip form --------------------------------------------------------------------------------
    function normaliseWord(text) {
      var out = [];
      Array.from(text || "").forEach(function (ch) {
        if (/[\u2019\u02bc\u2018`\u00b4]/.test(ch)) ch = "'";
        if (ch === "*") { out.push({letter: "'", blank: true}); return; }
        if (/[\s\d.,;:!?()\-]/.test(ch)) return;
        var up = ch.toUpperCase();
        out.push({letter: up, blank: false});
      });
      return out;
    }
    function slipLetters() {
      return normaliseWord($("slip-word").value).map(function (t, i) {
        return {letter: t.letter, blank: !!blanks[i]};
      });
    }
    function slipWord() {
      return slipLetters().map(function (t) {
        if (!t.blank) return t.letter;
        return t.letter === "'" ? "*" : t.letter.toLowerCase();
      }).join("");
    }
    function fillForm(word, coords, score) {
      var tiles = normaliseWord(word || "");
      blanks = Array.from(word || "").filter(function (ch) { return !/[\s\d]/.test(ch); }).map(function (ch) {
        return ch === "*" || ch !== ch.toUpperCase();
      });
      $("slip-word").value = tiles.map(function (t) { return t.letter; }).join("");
      $("slip-coords").value = coords || "";
      $("slip-score").value = score == null ? "" : String(score);
      renderBlankMarker();
    }
    function onWordInput() {
      var input = $("slip-word"), tiles = normaliseWord(input.value);
      var text = tiles.map(function (t) { return t.letter; }).join("");
      if (input.value !== text) {
        var pos = input.selectionStart;
        input.value = text;
        try { input.setSelectionRange(pos, pos); } catch (e) { /* not a text field */ }
      }
      tiles.forEach(function (t, i) { if (t.blank) blanks[i] = true; });
      blanks.length = tiles.length;
      renderBlankMarker();
      renderBoard();
    }
    function renderBlankMarker() {
      var tiles = slipLetters(), box = $("blank-tiles");
      box.innerHTML = "";
      $("blank-marker").hidden = !tiles.length;
      tiles.forEach(function (t, i) {
        var b = tileEl(t.letter, t.blank);
        b.setAttribute("role", "button");
        b.tabIndex = 0;
        b.setAttribute("aria-pressed", t.blank ? "true" : "false");
        b.addEventListener("click", function () {
          if ($("slip-word").disabled) return;
          blanks[i] = !blanks[i];
          renderBlankMarker();
          renderBoard();
        });
        box.appendChild(b);
      });
    }
    function formMessage(text, kind) {
      var m = $("form-message");
      m.hidden = !text;
      m.textContent = text || "";
      m.className = "tb-message " + (kind || "error");
    }
    function hasReceipt() {
      var r = state && state.round;
      if (!r) return false;
      if (answer && answer.round === r.id && answer.status === "received") return true;
      return !!(state.slip && state.slip.round === r.id && state.slip.is_current);
    }
    function renderForm() {
      var phase = phaseOf(), form = $("slip-form");
      form.hidden = phase === "none" || phase === "published" || phase === "loading";
      var open = phase === "open";
      ["slip-word", "slip-coords", "slip-score", "slip-submit"].forEach(function (id) { $(id).disabled = !open; });
      $("slip-submit").textContent = hasReceipt() ? S.replace : S.hand_in;
      if (phase === "over") form.hidden = true;  // nothing can change: the receipt says what counts
      var banner = $("over-banner");
      banner.hidden = phase !== "over";
      banner.textContent = S.time_over_long;
      if (!open) formMessage("");
      if (!open) { $("chooser").hidden = true; $("assist").hidden = true; chosen = null; }
    }
    function onSubmit(e) {
      e.preventDefault();
      if (phaseOf() !== "open") { render(); return; }
      var word = slipWord(), coords = $("slip-coords").value.trim().toUpperCase(), scoreText = $("slip-score").value.trim();
      if (!word) { formMessage(S.word_missing); $("slip-word").focus(); return; }
      if (coords && !parseCoords(coords)) { formMessage(S.coords_bad); $("slip-coords").focus(); return; }
      if (scoreText && !/^\d{1,4}$/.test(scoreText)) { formMessage(S.score_bad); $("slip-score").focus(); return; }
      formMessage("");
      var item = {
        key: uuid(), round: state.round.id, word: word, coordinates: coords.replace(/\s+/g, ""),
        score: scoreText ? parseInt(scoreText, 10) : null, made: Date.now()
      };
      outbox.push(item);  // kept before anything is sent: a slip is never lost
      save(OUTBOX_KEY, outbox);
      renderReceipt();
      flush();
    }

    // -- outbox: send in order, retry with the same Idempotency-Key -------------------------------------
    function flush() {
      if (sending || !outbox.length || stopped) return;
      clearTimeout(retryTimer);
      var item = outbox[0];
      sending = true;
      item.next = null;
      renderReceipt();
      fetch(cfg.urls.slip, {
        method: "POST", cache: "no-store",
        headers: {"Authorization": "Tablet " + token, "Content-Type": "application/json", "Accept": "application/json",
          "Idempotency-Key": item.key},
        body: JSON.stringify({word: item.word, coordinates: item.coordinates, score: item.score, round: item.round})
      }).then(jsonOf).then(function (res) {
        sending = false;
        var code = res.body.code;
        if (res.status === 200 || res.status === 201) settle(item, {status: "received", slip: res.body});
        else if (res.status === 409 && code === "time_over") settle(item, {status: "late", slip: res.body.slip, detail: res.body.detail});
        else if (res.status === 401) { loggedOut(); }
        else if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) {
          settle(item, {status: "refused", code: code, detail: res.body.detail});
        } else { retryLater(item); }
      }).catch(function () {  // no answer: the network (the next successful poll or 'online' sends it again)
        sending = false;
        retryLater(item);
      });
    }
    function settle(item, result) {
      outbox = outbox.filter(function (i) { return i.key !== item.key; });
      save(OUTBOX_KEY, outbox);
      attempt = 0;
      result.round = item.round;
      result.key = item.key;
      result.text = [item.coordinates, item.word, item.score == null ? "" : item.score].join(" ").trim();
      answer = result;
      save(ANSWER_KEY, answer);
      if (result.status === "received" && state && state.round && state.round.id === item.round) state.slip = result.slip;
      if (state) { renderForm(); renderReceipt(); }
      flush();
    }
    function retryLater(item) {
      attempt += 1;
      var delay = Math.min(30000, 1000 * Math.pow(2, attempt - 1)) * (0.8 + Math.random() * 0.4);
      item.next = Date.now() + delay;
      clearTimeout(retryTimer);
      retryTimer = setTimeout(flush, delay);
      renderReceipt();
    }

    // -- receipt and results ---------------------------------------------------------------------------
    function slipText(s) {
      return [s.coordinates, s.word, s.announced_score == null ? "" : s.announced_score].join(" ").trim();
    }
    function line(parent, cls, text) { var p = el("p", cls, text); parent.appendChild(p); return p; }
    function renderReceipt() {
      var box = $("receipt"), r = state && state.round;
      box.innerHTML = "";
      box.className = "card tb-receipt";
      if (!r) { box.hidden = true; return; }
      var pending = outbox.filter(function (i) { return i.round === r.id; });
      var mine = answer && answer.round === r.id ? answer : null;
      var server = state.slip && state.slip.round === r.id ? state.slip : null;
      if (!mine && server && server.late && !server.is_current) mine = {status: "late", text: slipText(server)};
      if (phaseOf() === "published" && !pending.length && !(mine && mine.status !== "received")) {
        box.hidden = true;  // the results say it all
        return;
      }
      if (pending.length) {
        var last = pending[pending.length - 1];
        box.classList.add("pending");
        line(box, "tb-receipt-head", "↻ " + S.pending_short);
        line(box, "tb-receipt-slip mono", [last.coordinates, last.word, last.score == null ? "" : last.score].join(" ").trim());
        line(box, "small", S.pending);
        var first = outbox[0];
        line(box, "small muted", sending ? S.sending : (first.next ? fmt(S.retry_in, {s: Math.max(1, Math.round((first.next - Date.now()) / 1000))}) : ""));
      } else if (mine && mine.status !== "received") {
        box.classList.add("refused");
        line(box, "tb-receipt-head", "✖ " + S.refused);
        line(box, "tb-receipt-slip mono", mine.text);
        line(box, "", mine.status === "late" ? S.late : mine.code === "no_open_round" ? S.round_over :
          mine.code === "round_changed" ? S.round_changed : fmt(S.invalid, {detail: mine.detail || ""}));
      }
      var counted = server && server.is_current ? server : (mine && mine.status === "received" ? mine.slip : null);
      if (counted) {
        var part = el("div", "tb-receipt-ok");
        line(part, "tb-receipt-head", "✔ " + fmt(S.received, {time: clockOf(counted.received_at)}));
        line(part, "tb-receipt-slip mono", slipText(counted));
        line(part, "small muted", (counted.version > 1 ? fmt(S.version, {n: counted.version}) + " · " : "") +
          (phaseOf() === "open" ? S.can_replace : S.counts));
        box.appendChild(part);
        if (!pending.length && !(mine && mine.status !== "received")) box.classList.add("ok");
      }
      box.hidden = !box.childNodes.length;
    }
    function renderResult() {
      var box = $("result"), phase = phaseOf();
      box.innerHTML = "";
      var v = state.verdict, top = state.top, res = state.result;
      if (phase !== "published" && !v) { box.hidden = true; return; }
      box.hidden = false;
      box.appendChild(el("h2", "", S.status_published));
      var mine = el("div", "tb-res-mine");
      mine.appendChild(el("div", "small muted", S.your_move));
      var slip = state.slip && state.round && state.slip.round === state.round.id ? state.slip : null;
      mine.appendChild(el("div", slip ? "mono tb-res-move" : "tb-res-none", slip ? slipText(slip) : S.no_slip));
      if (v) {
        var verdict = el("div", "tb-res-verdict" + (v.awarded > 0 ? " ok" : " bad"), points(S.points, v.awarded, cfg.lang));
        if (v.warning) verdict.appendChild(el("span", "tb-warn", " ⚠ " + S.warning));
        mine.appendChild(verdict);
        if (slip) mine.appendChild(el("div", "small", S.reasons[v.reason] || v.reason));
      }
      box.appendChild(mine);
      if (top) {
        var t = el("div", "tb-res-top");
        t.appendChild(el("div", "small muted", S.top));
        t.appendChild(el("div", "mono tb-res-move", localMove(top.move) + " — " + points(S.points, top.score, cfg.lang)));
        box.appendChild(t);
      }
      if (res) {
        var figs = el("dl", "tb-res-figures");
        function fig(label, value, note) {
          var d = el("div");
          d.appendChild(el("dt", "", label));
          var dd = el("dd", "", String(value));
          if (note) dd.appendChild(el("small", "muted", " " + note));
          d.appendChild(dd);
          figs.appendChild(d);
        }
        fig(S.round_score, res.round_score, res.solo ? fmt(S.solo, {n: res.solo}) : "");
        fig(S.total, res.total, fmt(S.top_total, {n: res.top_total}));
        fig(S.rank, res.rank, fmt(S.of_players, {n: res.players}));
        box.appendChild(figs);
      }
    }

    // -- countdown ------------------------------------------------------------------------------------
    function tick() {
      if (!state) return;
      var phase = phaseOf(), clock = $("clock"), r = state.round, text = "", left = null;
      if (phase === "open" || phase === "over") {
        var d = deadlineMs();
        left = d === null ? null : Math.max(0, Math.ceil((d - serverNow()) / 1000));
      } else if (phase === "drawn") {
        left = state.tournament.seconds_per_move;
      }
      if (left !== null) text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      if (phase === "over" && r) text = "0:00";
      clock.textContent = text;
      clock.dataset.level = phase !== "open" ? "idle" : left <= 10 ? "red" : left <= 30 ? "orange" : "ok";
      clock.setAttribute("aria-label", phase === "over" ? S.time_over : text);
      if (phase !== lastPhase) render();
    }

    // -- wiring --------------------------------------------------------------------------------------------
    $("slip-coords").placeholder = coordText(7, 7, false) + " / " + coordText(7, 7, true);
    $("slip-form").addEventListener("submit", onSubmit);
    $("slip-word").addEventListener("input", onWordInput);
    $("slip-coords").addEventListener("input", function () { renderBoard(); });
    $("choose-h").addEventListener("click", function () { chooseDirection(false); });
    $("choose-v").addEventListener("click", function () { chooseDirection(true); });
    $("choose-x").addEventListener("click", function () { chosen = null; $("chooser").hidden = true; renderBoard(); });
    $("assist-use").addEventListener("click", useAssist);
    $("assist-clear").addEventListener("click", function () { placed = []; selectedRack = null; afterPlacement(); });
    $("logout").addEventListener("click", function () {
      if (outbox.length && !window.confirm(S.confirm_logout)) return;
      save(TOKEN_KEY, null);
      setCookie("", 0);
      location.replace(cfg.urls.login);
    });
    window.addEventListener("online", function () { attempt = 0; flush(); schedule(0); });
    window.addEventListener("offline", function () { setOnline(false); });
    document.addEventListener("visibilitychange", function () { if (!document.hidden) { schedule(0); flush(); } });
    setInterval(function () {
      tick();
      if (outbox.length && !sending && $("receipt") && state) renderReceipt();
    }, 250);

    buildBoard();
    poll();  // the first answer has no If-None-Match: 200 → the state is loaded
    flush();
  }
})();
