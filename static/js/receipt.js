/* The tablet's receipt card (#receipt: the slip that counts, a slip waiting in the outbox, a slip refused)
 * and the results of a published round (#result: own move and verdict, the top, round score, total, rank; in a
 * tournament of several games the tournament's total and rank and each other finished game's result).
 */
(function () {
  "use strict";
  var D = window.Duplicate = window.Duplicate || {};
  var T = D.text, el = T.el, fmt = T.fmt;

  function stored(s) { return D.outbox.slipText(s.coordinates, s.word, s.announced_score); }
  function line(parent, cls, text) { return parent.appendChild(el("p", cls, text)); }
  /** A slip as typed, shown as the hall reads it: its coordinates in the tournament's rows (a Latin H6 in a hall of
   * Cyrillic rows is З6), the letter drawn apart (coords.js). */
  function slipShown(parent, tag, cls, config, text) {
    return D.coords.fill(parent.appendChild(el(tag, cls)), D.coords.slipLine(config, text));
  }

  /** options: config (the board config), strings, lang. */
  function Receipt(options) { this.options = options; }

  /**
   * The receipt of the current round. ctx: state (the tablet state), phase, answer (the server's last answer
   * to a slip of ours, outbox.js), outbox.
   */
  Receipt.prototype.slip = function (box, ctx) {
    var S = this.options.strings, state = ctx.state, r = state && state.round, outbox = ctx.outbox;
    box.innerHTML = "";
    box.className = "card tb-receipt";
    if (!r) { box.hidden = true; return; }
    var pending = outbox.forRound(r.id), answer = ctx.answer;
    var mine = answer && answer.round === r.id ? answer : null;
    var server = state.slip && state.slip.round === r.id ? state.slip : null;
    // a late slip the server kept: the tablet's own, or a paper slip the arbiter typed as handed in late
    if (!mine && server && server.late && !server.is_current) {
      mine = {status: "late", text: stored(server),
              paper: server.source === "paper" || server.source === "arbiter"};
    }
    var refused = !!(mine && mine.status !== "received");
    if (ctx.phase === "published" && !pending.length && !refused) {
      box.hidden = true;  // the results say it all
      return;
    }
    if (pending.length) {
      var last = pending[pending.length - 1], next = outbox.nextTry();
      box.classList.add("pending");
      line(box, "tb-receipt-head", "↻ " + S.pending_short);
      slipShown(box, "p", "tb-receipt-slip mono", this.options.config, D.outbox.slipText(last.coordinates, last.word, last.score));
      line(box, "small", S.pending);
      line(box, "small muted", outbox.sending ? S.sending : next ? fmt(S.retry_in, {s: next}) : "");
    } else if (refused) {
      box.classList.add("refused");
      line(box, "tb-receipt-head", "✖ " + S.refused);
      slipShown(box, "p", "tb-receipt-slip mono", this.options.config, mine.text);
      // why, under the head that already says it was refused (the server's reason, a sentence of its own)
      var late = mine.paper ? S.late_paper : S.late;
      line(box, "", mine.status === "late" ? late : mine.code === "no_open_round" ? S.round_over :
        mine.code === "round_changed" ? S.round_changed : T.capital(mine.detail || ""));
    }
    var counted = server && server.is_current ? server : (mine && mine.status === "received" ? mine.slip : null);
    if (counted && !ctx.topping) {  // topping: the attempt's answer is on its own card (#topping)
      var part = box.appendChild(el("div", "tb-receipt-ok"));
      line(part, "tb-receipt-head", "✔ " + fmt(S.received, {time: D.clock.timeOfDay(counted.received_at)}));
      slipShown(part, "p", "tb-receipt-slip mono", this.options.config, stored(counted));
      line(part, "small muted", (counted.version > 1 ? fmt(S.version, {n: counted.version}) + " · " : "") +
        (ctx.phase === "open" ? S.can_replace : S.counts));
      if (!pending.length && !refused) box.classList.add("ok");
    }
    box.hidden = !box.childNodes.length;
  };

  /** The results of the round, once published (or as soon as a verdict is there). */
  Receipt.prototype.result = function (box, state, phase) {
    var o = this.options, S = o.strings, v = state.verdict, top = state.top, res = state.result;
    box.innerHTML = "";
    if (phase !== "published" && !v) { box.hidden = true; return; }
    box.hidden = false;
    // the round named: while the arbiter types the next rack, these are still the last round's results
    box.appendChild(el("h2", "", state.round ? fmt(S.round_results, {n: state.round.number}) : S.status_published));
    var mine = box.appendChild(el("div", "tb-res-mine"));
    mine.appendChild(el("div", "small muted", S.your_move));
    var slip = state.slip && state.round && state.slip.round === state.round.id ? state.slip : null;
    if (slip) slipShown(mine, "div", "mono tb-res-move", o.config, stored(slip));
    else mine.appendChild(el("div", "tb-res-none", S.no_slip));
    if (v) {
      var verdict = mine.appendChild(el("div", "tb-res-verdict" + (v.awarded > 0 ? " ok" : " bad"), T.points(S.points, v.awarded, o.lang)));
      if (v.warning) verdict.appendChild(el("span", "tb-warn", " ⚠ " + S.warning));
      if (slip) mine.appendChild(el("div", "small tb-res-reason", T.capital(S.reasons[v.reason] || v.reason)));
    }
    if (top) {
      var t = box.appendChild(el("div", "tb-res-top"));
      t.appendChild(el("div", "small muted", S.top));
      D.coords.fill(t.appendChild(el("div", "mono tb-res-move")),
                    D.coords.move(o.config, top.move) + " — " + T.points(S.points, top.score, o.lang));
      if (top.replaced) {  // the Joker variant: the blank the top played is now its letter's tile on the board
        t.appendChild(el("div", "small tb-res-replaced",
                         Array.from(top.replaced).map(function (l) { return "? \u2192 " + l; }).join(", ")));
      }
    }
    if (res) {
      var figures = box.appendChild(el("dl", "tb-res-figures"));
      figure(figures, S.round_score, res.round_score, res.solo ? fmt(S.solo, {n: res.solo}) : "");
      figure(figures, S.total, res.total, fmt(S.top_total, {n: res.top_total}));
      if (res.time_total != null) {  // topping: the total time ranks, the points come after
        figure(figures, S.topping_total_time, D.clock.format(res.time_total), fmt(S.topping_tops, {n: res.topped}));
        figure(figures, S.rank, res.time_rank, fmt(S.of_players, {n: res.players}));
      } else {
        figure(figures, S.rank, res.rank, fmt(S.of_players, {n: res.players}));
      }
    }
    this.tournament(box, state.tournament_result);
  };

  /** A tournament of several games: the player's tournament total and rank, then each other finished game's
   * total and rank (the server's figures: every correction included). */
  Receipt.prototype.tournament = function (box, t) {
    var S = this.options.strings;
    if (!t) return;
    var part = box.appendChild(el("div", "tb-res-tournament"));
    var figures = part.appendChild(el("dl", "tb-tour-figures"));
    figure(figures, S.tournament_total, t.total, fmt(S.top_total, {n: t.top_total}));
    figure(figures, S.tournament_rank, t.rank, fmt(S.of_players, {n: t.players}));
    if (!t.games.length) return;
    var games = part.appendChild(el("dl", "tb-res-games"));
    t.games.forEach(function (g) {
      var d = games.appendChild(el("div"));
      d.appendChild(el("dt", "", fmt(S.game_n, {game: g.game})));
      d.appendChild(el("dd", "", fmt(S.game_result, {total: g.total, top_total: g.top_total, rank: g.rank, n: t.players})));
    });
  };
  function figure(box, label, value, note) {
    var d = box.appendChild(el("div"));
    d.appendChild(el("dt", "", label));
    var dd = d.appendChild(el("dd", "", String(value)));
    if (note) dd.appendChild(el("small", "muted", " " + note));
  }

  D.receipt = {create: function (options) { return new Receipt(options); }};
})();
