/* The training pages (tournament/training/): a run's round (board, rack, clock, slip) and the club session.
 *
 * The pages are made by the server; this script draws the board and the rack with the shared renderer
 * (board.js), runs the countdown on the server's clock (clock.js), reads the slip with the tablet's slip
 * form (slip.js: the blanks in lower case, the coordinates in the game's rows) and, when the time is over,
 * sends the time-out form (the round is then judged without a slip). A page that waits for someone else (a
 * club run between rounds, the leader's page) asks its state every 2 s and reloads when it moved on.
 * Language pickers send themselves.
 */
(function () {
  "use strict";
  var D = window.Duplicate = window.Duplicate || {};
  var T = D.text, byId = T.byId;
  T.autosubmit();
  if (!byId("training-config")) return;
  var cfg = T.readJson("training-config"), S = T.readJson("training-strings") || {}, B = cfg.board;
  var form = null, start = null, sent = false, board = null;

  function draw() {
    var marks = {ghosts: form ? form.ghosts() : {}, start: start};
    if (cfg.fen_before) marks.fresh = D.board.newSquares(cfg.fen_before, cfg.fen);
    board.draw(cfg.fen, marks);
  }

  /** A tap on a square: the start of the word, horizontal; a second tap on it: vertical. */
  function tapped(r, c) {
    if (sent) return;
    var where = form.where(), vertical = !!(where && where.row === r && where.col === c && !where.vertical);
    byId("slip-coords").value = D.coords.text(B, r, c, vertical);
    start = {row: r, col: c};
    draw();
  }

  function rack() {
    var box = byId("rack");
    if (!box) return;
    Array.from(cfg.rack || "").forEach(function (letter) {
      box.appendChild(D.board.tile(B, letter, false, true));
    });
  }

  /** The countdown to cfg.deadline; onOver() once it reaches 0. */
  function countdown(onOver) {
    var c = D.clock.create(), face = byId("clock"), over = false;
    c.samplePage(cfg.server_time);
    function tick() {
      var left = c.left(cfg.deadline);
      if (left == null || !face) return;
      face.textContent = D.clock.format(left);
      face.dataset.level = D.clock.level(left);
      if (left > 0 || over) return;
      over = true;
      if (onOver) onOver();
    }
    tick();
    setInterval(tick, 250);
  }

  function timeOver() {
    if (sent) return;
    sent = true;
    form.enable(false);
    form.message(S.time_over, "info");
    byId("timeout-form").submit();
  }

  /** Reloads the page when the state behind cfg.poll.url moved on. */
  function follow(poll) {
    setInterval(function () {
      fetch(poll.url, {cache: "no-store", credentials: "same-origin"})
        .then(function (response) { return response.json(); })
        .then(function (body) { if (body.signature && body.signature !== poll.signature) location.reload(); })
        .catch(function () { /* no network: try again at the next tick */ });
    }, 2000);
  }

  if (B) {
    board = D.board.create(byId("board"), B, {names: true, onSquare: cfg.playing ? tapped : null});
    if (cfg.playing) {
      form = D.slip.create({config: B, strings: S, changed: draw});
      byId("slip-coords").addEventListener("input", function () { start = null; draw(); });
      byId("slip-form").addEventListener("submit", function (event) {
        var slip = form.read();
        if (!slip || sent) { event.preventDefault(); return; }
        sent = true;
        byId("slip-coords").value = slip.coordinates;
        byId("slip-word").value = slip.word;
      });
      rack();
      countdown(timeOver);
      byId("slip-word").focus();
    }
    draw();
  } else if (cfg.deadline) {
    countdown(null);
  }
  if (cfg.poll) follow(cfg.poll);
})();
