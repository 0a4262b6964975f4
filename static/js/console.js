/* The arbiter console's scripts (every console page loads text.js, coords.js, clock.js, board.js, then this):
 *   the board page: the board drawn by board.js from the board config and the FEN of the page, the last
 *     top's tiles highlighted;
 *   the game page: the countdown of the open round on the server's clock, the live slip panel refreshed
 *     every 2 s while the round takes slips (the page reloads when the round's status changes);
 *   the game page's draw form: while the arbiter types the rack drawn from the bag, the server is told (at his
 *     first key, then every 15 s while he types), so that the tablets say so until the draw;
 *   the paper slip page: the table's player shown as its number is typed, the coordinates read back under
 *     their field (coords.js), the focus on the replacement to confirm, the first field to fix, or the table
 *     number; one click saves once;
 *   the standings page: the rows filtered as the arbiter types in the search box;
 *   the new-tournament form: a lexicon being built followed until it is ready, then chosen;
 *   the menu scrolled to the page's entry when it is longer than the screen;
 *   language pickers (select[data-autosubmit]) and print buttons ([data-print], [data-print=ID]: that element only);
 *   file fields (input[type=file][data-choose]): the browser's own button speaks its language, not the
 *     page's: a button and the chosen file's name in the page's words instead.
 * Texts come translated from the page (data attributes, JSON blocks).
 */
(function () {
  "use strict";
  var D = window.Duplicate, T = D.text, byId = T.byId, el = T.el;
  var LIVE_MS = 2000;
  var LIVE_STREAMING_MS = 10000;

  function boardPage() {
    var config = T.readJson("board-config");
    if (!config || !byId("board")) return;
    var board = D.board.create(byId("board"), config, {names: true});
    board.draw(T.readJson("board-fen") || "", {fresh: T.readJson("board-fresh") || []});
  }

  /** The open round's countdown: the deadline and the server's time are written into the page. */
  function roundClock() {
    var box = byId("clock");
    if (!box || !box.dataset.deadline) return;
    var clock = D.clock.create();
    clock.samplePage(box.dataset.serverTime);
    function show() {
      var left = clock.left(box.dataset.deadline) || 0;
      box.textContent = D.clock.format(left);
      box.className = "big-clock" + (left === 0 ? " bad" : left <= 30 ? " warn" : "");
    }
    show();
    setInterval(show, 250);
  }

  function cell(tr, text, cls) {
    var td = tr.appendChild(el("td", cls, text));
    return td;
  }
  function showLive(box, d) {
    byId("live-count").textContent = d.count;
    byId("live-players").textContent = d.players;
    var missing = byId("live-missing");
    missing.className = "missing-tables" + (d.missing.length ? "" : " none");
    missing.textContent = d.missing.length ? d.missing_text : box.dataset.none;
    byId("live-missing-count").textContent = "(" + d.missing.length + ")";
    byId("live-late").hidden = !d.late.length;  // late slips counted apart: their tables are not missing
    byId("live-late").textContent = " · " + d.late_text;
    byId("live-late-tables").hidden = !d.late.length;
    byId("live-late-list").textContent = d.late_tables;
    byId("live-shown").hidden = d.received.length < d.limit;
    var body = byId("live-rows");
    body.innerHTML = "";
    if (!d.received.length) cell(body.appendChild(el("tr")), box.dataset.empty, "muted").colSpan = 5;
    d.received.forEach(function (s) {
      var tr = body.appendChild(el("tr", s.late ? "late" : ""));
      cell(tr, s.table, "num");
      cell(tr, s.name);
      D.coords.fill(cell(tr, "", "mono slip-text"), s.text);  // the letter of the coordinate marked (З8, not 38)
      var at = cell(tr, s.at);
      if (s.late) at.appendChild(el("span", "warn", " " + box.dataset.late));
      cell(tr, s.source + (s.version > 1 ? " · v" + s.version : ""), "small");
    });
  }
  /** The slips received and the tables missing, while the round takes slips. */
  function livePanel() {
    var box = byId("live");
    if (!box || !window.fetch) return;
    var status = box.dataset.status;
    if (status !== "open" && status !== "closed") return;
    var timer = null, busy = false, again = false;
    function tick() {
      if (busy) { again = true; return; }  // one request at a time; the last event is not lost
      busy = true;
      clearTimeout(timer);
      fetch(box.dataset.url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
        .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
        .then(function (d) {
          if (d.status !== status) { window.location.reload(); return; }
          showLive(box, d);
        })
        .catch(function () { /* the next tick tries again */ })
        .finally(function () {
          busy = false;
          if (again) { again = false; tick(); return; }
          timer = setTimeout(tick, stream.up ? LIVE_STREAMING_MS : LIVE_MS);
        });
    }
    // with the stream, the panel is fetched when a slip comes in or the round changes (and every 10 s)
    var stream = D.stream.create({url: box.dataset.stream || null, onSlips: tick, onState: tick});
    timer = setTimeout(tick, LIVE_MS);
  }

  /** Paper slips: the player's name (and the slip that counts now) shown as the table number is typed;
   * focus on the replacement to confirm, else on the first field to fix, else on the table number
   * (Enter in any field saves); one press saves once. */
  function slipEntry() {
    var form = byId("slip-form");
    if (!form) return;
    var table = byId("id_table"), first = form.querySelector("[aria-invalid=true]"), replace = byId("replace-button");
    if (replace) replace.focus();
    else if (form.querySelector(".errorlist")) { if (first) first.focus(); } else if (table) table.focus();
    form.addEventListener("submit", function (e) {
      if (form.dataset.sent) { e.preventDefault(); return; }
      form.dataset.sent = "1";  // not disabling the button: its name and value (replace) must be sent
    });
    // the coordinates with their letter drawn apart, what they read as under the field (З9, never 39)
    D.coords.field(byId("id_coordinates"), T.readJson("coord-config"), {after: byId("table-name")});
    var names = T.readJson("slip-tables") || {}, texts = byId("slip-texts"), out = byId("table-name");
    if (!table || !out || !texts) return;
    var label = (table.labels[0] ? table.labels[0].textContent : "").replace(/:\s*$/, "");
    label = label.charAt(0).toUpperCase() + label.slice(1);
    function showName() {
      var n = table.value.trim(), row = names[n];
      out.className = "table-name" + (n && !row ? " unknown" : "");
      out.textContent = !n ? "" : label + " " + n + ": " +
        (row ? row[0] + (row[1] ? " · " + texts.dataset.has + " " + row[1] : "") : texts.dataset.none);
    }
    table.addEventListener("input", showName);
    showName();
  }

  /** Standings: the rows filtered as the arbiter types (a number is a table, words a name or a club);
   *  the form still sends ?q= without JavaScript. */
  function standingsSearch() {
    var form = byId("standings-search"), input = byId("standings-q"), shown = byId("standings-shown");
    if (!form || !input) return;
    var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-find]"));
    var total = rows.length, forms = JSON.parse(shown.dataset.forms || "{}"), lang = document.documentElement.lang;
    function apply() {
      var q = input.value.trim().replace(/\s+/g, " ").toLowerCase(), n = 0;
      rows.forEach(function (tr) {
        var hit = !q || (/^\d+$/.test(q) ? tr.dataset.table === String(parseInt(q, 10)) : tr.dataset.find.indexOf(q) >= 0);
        tr.hidden = !hit;
        if (hit) n += 1;
      });
      document.querySelectorAll("table.data").forEach(function (table) {  // a group without a match is hidden
        var any = table.querySelector("tr[data-find]:not([hidden])"), head = table.previousElementSibling;
        var empty = !any && table.querySelector("tr[data-find]");
        table.hidden = !!(q && empty);
        if (head && head.tagName === "H2") head.hidden = table.hidden;
      });
      shown.textContent = q ? T.plural(forms, total, lang, {shown: n, total: total}) : "";
    }
    if (input.value) return;  // the page holds the result of a search sent (?q=): Enter searches again
    input.addEventListener("input", apply);
  }

  /** The draw form: the arbiter types the rack drawn from the bag. The tablets are told (POST, the form's CSRF
   * token) at his first key and again every 15 s while he types, so that they say so until the draw. */
  function rackTyping() {
    var form = byId("draw-form"), url = form && form.dataset.rackTyping;
    var input = form && form.querySelector("input[name=typed_rack]");
    if (!url || !input || !window.fetch) return;
    var token = form.querySelector("input[name=csrfmiddlewaretoken]"), last = 0;
    input.addEventListener("input", function () {
      var now = Date.now();
      if (!input.value.trim() || now - last < 15000) return;
      last = now;
      fetch(url, {method: "POST", credentials: "same-origin",
                  headers: {"X-CSRFToken": token ? token.value : "", "Accept": "application/json"}})
        .catch(function () { last = 0; /* the next key tries again */ });
    });
  }

  /** [data-print] prints the page; [data-print=ID] only the element ID (a list of access codes, not the page). */
  function printButtons() {
    document.querySelectorAll("[data-print]").forEach(function (button) {
      button.addEventListener("click", function (e) {
        e.preventDefault();
        var only = button.dataset.print ? byId(button.dataset.print) : null;
        if (only) { document.body.classList.add("print-one"); only.classList.add("print-this"); }
        window.print();
        if (only) { document.body.classList.remove("print-one"); only.classList.remove("print-this"); }
      });
    });
  }

  function fileInputs() {
    document.querySelectorAll("input[type=file][data-choose]").forEach(function (input) {
      var none = input.getAttribute("data-none") || "";
      var button = el("label", "button secondary file-choose", input.getAttribute("data-choose"));
      var name = el("span", "file-name muted small", none);
      button.htmlFor = input.id;
      input.classList.add("file-hidden");
      input.after(button, name);
      input.addEventListener("change", function () {
        name.textContent = input.files && input.files.length ? input.files[0].name : none;
      });
    });
  }

  /** The new-tournament form: a lexicon built from an installed package, followed until it is ready, then added
   * to the lexicon list and chosen (the form keeps what was typed). */
  function lexiconBuilds() {
    document.querySelectorAll("[data-lexicon-status]").forEach(function (box) {
      var select = byId("id_lexicon");
      function tick() {
        fetch(box.dataset.lexiconStatus, {credentials: "same-origin", headers: {"Accept": "application/json"}})
          .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
          .then(function (d) {
            if (!d.done) {
              box.textContent = box.dataset.building + " " + (d.progress || 0) + "\u00a0%";
              setTimeout(tick, 1000);
              return;
            }
            var label = d.name + (d.version ? " v" + d.version : "");
            if (d.status !== "ready") { box.textContent = T.fmt(box.dataset.failed, {error: d.error}); return; }
            if (select && !select.querySelector("option[value='" + d.id + "']")) {
              select.appendChild(el("option", "", label + " (" + box.dataset.ruleset + ", " + d.word_count + ")")).value = d.id;
            }
            if (select) select.value = String(d.id);
            var said = box.parentNode.querySelector(".no-lexicon");  // "no lexicon yet" is true no more
            if (said) said.hidden = true;
            box.textContent = T.fmt(box.dataset.ready, {label: label});
          })
          .catch(function () { setTimeout(tick, 3000); });
      }
      tick();
    });
  }

  /** A menu longer than the screen scrolls sideways: the page's own entry is brought into view. */
  function menuInView() {
    var nav = document.querySelector("header.topbar nav"), active = nav && nav.querySelector("a.active");
    if (active && nav.scrollWidth > nav.clientWidth) nav.scrollLeft = Math.max(0, active.offsetLeft - nav.offsetLeft - 16);
  }

  T.autosubmit();
  menuInView();
  printButtons();
  fileInputs();
  boardPage();
  roundClock();
  livePanel();
  slipEntry();
  rackTyping();
  standingsSearch();
  lexiconBuilds();
})();
