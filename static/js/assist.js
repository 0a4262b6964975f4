/* The tablet's assisted mode: the player taps a tile of the rack, then a square of the board; the server
 * names the move and its score (POST assist: placement rules, lexicon, score), and "Use this move" fills
 * the slip. Tiles placed by hand are drawn on the board as ghosts (class "placed"); a blank asks its letter.
 *
 * Owns #assist, #assist-result, #assist-use, #assist-clear and the letter picker overlay.
 */
(function () {
  "use strict";
  var D = window.Duplicate = window.Duplicate || {};
  var T = D.text, byId = T.byId, el = T.el;

  /**
   * options: config (the board config), strings, lang, url (the assist API), token, and
   *   rack(): the letters of the rack ("?" = blank);
   *   changed(): the tiles placed or the rack selection changed (redraw the rack and the board);
   *   use(move): the move computed, {word, coordinates, score}: fill the slip with it.
   */
  function Assist(options) {
    this.options = options;
    this.placed = [];  // {row, col, letter, blank, rackIndex}
    this.selected = null;  // index of the rack tile picked up
    this.move = null;  // the server's answer for the tiles placed, when legal
    this.timer = null;
    var self = this;
    byId("assist-use").addEventListener("click", function () { self.useMove(); });
    byId("assist-clear").addEventListener("click", function () { self.clear(); });
  }

  /** A new round: nothing placed (the board and the rack are redrawn by the caller). */
  Assist.prototype.reset = function () {
    this.placed = [];
    this.selected = null;
    this.move = null;
  };
  Assist.prototype.used = function (index) {
    return this.placed.some(function (p) { return p.rackIndex === index; });
  };
  /** Picks up (or puts down) a tile of the rack. */
  Assist.prototype.select = function (index) {
    if (this.used(index)) return;
    this.selected = this.selected === index ? null : index;
    this.options.changed();
  };
  /** The tiles placed, as ghost tiles of the board renderer. */
  Assist.prototype.ghosts = function () {
    var out = {};
    this.placed.forEach(function (p) { out[p.row + "," + p.col] = {letter: p.letter, blank: p.blank, cls: "placed"}; });
    return out;
  };

  /** A tap on a square: takes a placed tile back, or puts the tile picked up there. False: not for us. */
  Assist.prototype.tap = function (row, col, occupied) {
    var at = this.placed.findIndex(function (p) { return p.row === row && p.col === col; });
    if (at >= 0) {
      this.placed.splice(at, 1);
      this.after();
      return true;
    }
    if (this.selected === null || occupied) return false;
    var self = this, index = this.selected, letter = this.options.rack()[index];
    this.selected = null;
    if (letter === "?") {
      this.pickLetter(function (chosen) {
        if (chosen) self.placed.push({row: row, col: col, letter: chosen, blank: true, rackIndex: index});
        self.after();
      });
      return true;
    }
    this.placed.push({row: row, col: col, letter: letter, blank: false, rackIndex: index});
    this.after();
    return true;
  };

  Assist.prototype.clear = function () {
    this.placed = [];
    this.selected = null;
    this.after();
  };

  Assist.prototype.useMove = function () {
    var move = this.move;
    if (!move) return;
    this.options.use({word: move.word, coordinates: move.coordinates, score: move.score});
    this.clear();
  };

  /** Which letter a blank stands for: an overlay with the rule set's letters. */
  Assist.prototype.pickLetter = function (done) {
    var S = this.options.strings, box = el("div", "tb-overlay"), card = el("div", "card tb-picker");
    card.appendChild(el("p", "", S.blank_letter));
    var letters = el("div", "tb-picker-letters");
    this.options.config.alphabet.forEach(function (letter) {
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
  };

  Assist.prototype.after = function () {
    this.options.changed();
    this.move = null;
    byId("assist").hidden = !this.placed.length;
    byId("assist-use").disabled = true;
    byId("assist-result").textContent = this.placed.length ? "…" : "";
    clearTimeout(this.timer);
    if (this.placed.length) this.timer = setTimeout(this.compute.bind(this), 150);
  };

  function placements(placed) {
    return placed.map(function (p) { return {row: p.row, col: p.col, letter: p.letter, blank: p.blank}; });
  }

  Assist.prototype.compute = function () {
    var self = this, o = this.options, S = o.strings, asked = placements(this.placed);
    fetch(o.url, {
      method: "POST", cache: "no-store",
      headers: {"Authorization": "Tablet " + o.token, "Content-Type": "application/json", "Accept": "application/json",
        "Accept-Language": o.lang},
      body: JSON.stringify({cyrillic: !!o.config.cyrillic, placements: asked})
    }).then(T.answer).then(function (res) {
      if (JSON.stringify(asked) !== JSON.stringify(placements(self.placed))) return;  // tiles moved since
      var out = byId("assist-result");
      if (res.status === 200 && res.body.legal) {
        self.move = res.body;
        D.coords.fill(out, D.coords.slipLine(o.config, res.body.move) + " — " + T.points(S.points, res.body.score, o.lang));
        out.className = "tb-assist-result ok";
        byId("assist-use").disabled = false;
      } else {
        self.move = null;
        out.textContent = res.status === 200 ? (S.placement[res.body.code] || res.body.error || S.assist_error) : S.assist_error;
        out.className = "tb-assist-result bad";
      }
    }).catch(function () {
      byId("assist-result").textContent = S.assist_error;
    });
  };

  D.assist = {create: function (options) { return new Assist(options); }};
})();
