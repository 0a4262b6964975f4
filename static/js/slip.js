/* The tablet's slip form: word, coordinates, score, and the blank marker (tap a letter played with a blank).
 *
 * Owns #slip-word, #slip-coords, #slip-score, #blank-marker, #blank-tiles, #form-message and #slip-hint (a word
 * that runs off the board, said while it is typed). One rule for the
 * blanks, the judge's and the paper slips' (scoring/judge.py, "Blanks"): a letter in lower case is played with
 * a blank, "*" is a blank apostrophe. The word field shows the word so (tapping a letter below toggles it).
 */
(function () {
  "use strict";
  var D = window.Duplicate = window.Duplicate || {};
  var T = D.text, byId = T.byId;

  /** The tiles of a typed word: a letter in lower case is played with a blank, typographic apostrophes
   * read as "'", "*" is a blank "'"; spaces, digits and punctuation dropped. */
  function tilesOf(text) {
    var out = [];
    Array.from(text || "").forEach(function (ch) {
      if (/[\u2019\u02bc\u2018`\u00b4]/.test(ch)) ch = "'";
      if (ch === "*") { out.push({letter: "'", blank: true}); return; }
      if (/[\s\d.,;:!?()\-]/.test(ch)) return;
      var upper = ch.toUpperCase();
      out.push({letter: upper, blank: upper !== ch && ch.toLowerCase() === ch});
    });
    return out;
  }
  /** A word as the server stores it ("CATs", "DON*T"). */
  function written(tiles) {
    return tiles.map(function (t) {
      if (!t.blank) return t.letter;
      return t.letter === "'" ? "*" : t.letter.toLowerCase();
    }).join("");
  }

  /** options: config (the board config), strings, changed() (the word or its blanks changed). */
  function SlipForm(options) {
    this.options = options;
    var self = this;
    byId("slip-word").addEventListener("input", function () { self.onInput(); });
    // the typed coordinates with their letter drawn apart, and what they read as under the field (coords.js)
    D.coords.field(byId("slip-coords"), options.config, {after: byId("slip-coords").closest(".tb-field-row")});
  }

  /** The letters of the word with their blank flags. */
  SlipForm.prototype.letters = function () { return tilesOf(byId("slip-word").value); };
  /** The word as it is stored ("CATs", "DON*T"). */
  SlipForm.prototype.word = function () { return written(this.letters()); };

  /** Puts a slip in the form (a stored word: blanks in lower case). */
  SlipForm.prototype.fill = function (word, coordinates, score) {
    byId("slip-word").value = written(tilesOf(word || ""));
    // in the tournament's rows (a Latin L3 kept from another keyboard is shown М3: the same square)
    var where = coordinates ? D.coords.parse(this.options.config, coordinates) : null;
    byId("slip-coords").value = where ? D.coords.text(this.options.config, where.row, where.col, where.vertical)
                                      : (coordinates || "");
    byId("slip-score").value = score == null ? "" : String(score);
    this.renderBlanks();
  };

  SlipForm.prototype.onInput = function () {
    var input = byId("slip-word"), text = written(tilesOf(input.value));
    if (input.value !== text) {
      var pos = input.selectionStart;
      input.value = text;
      try { input.setSelectionRange(pos, pos); } catch (e) { /* not a text field */ }
    }
    this.renderBlanks();
    this.options.changed();
  };

  SlipForm.prototype.renderBlanks = function () {
    var self = this, tiles = this.letters(), box = byId("blank-tiles");
    box.innerHTML = "";
    byId("blank-marker").hidden = !tiles.length;
    tiles.forEach(function (t, i) {
      var b = D.board.tile(self.options.config, t.letter, t.blank);
      b.setAttribute("role", "button");
      b.tabIndex = 0;
      b.setAttribute("aria-pressed", t.blank ? "true" : "false");
      b.addEventListener("click", function () {
        var input = byId("slip-word");
        if (input.disabled) return;
        var now = tilesOf(input.value);
        now[i] = {letter: now[i].letter, blank: !now[i].blank};
        input.value = written(now);
        self.renderBlanks();
        self.options.changed();
      });
      box.appendChild(b);
    });
  };

  SlipForm.prototype.message = function (text, kind) {
    var m = byId("form-message");
    m.hidden = !text;
    m.textContent = text || "";
    m.className = "tb-message " + (kind || "error");
  };

  SlipForm.prototype.enable = function (open) {
    ["slip-word", "slip-coords", "slip-score", "slip-submit"].forEach(function (id) { byId(id).disabled = !open; });
    if (!open) this.message("");
  };

  /** Where the typed coordinates start ({row, col, vertical}), or null. */
  SlipForm.prototype.where = function () { return D.coords.parse(this.options.config, byId("slip-coords").value); };

  /** What the fields hold now, as typed ({word, coordinates, score}: the draft kept through a reload). */
  SlipForm.prototype.typed = function () {
    return {word: this.word(), coordinates: byId("slip-coords").value, score: byId("slip-score").value};
  };

  /** When the word typed runs off the board from the coordinates typed (what the judge and the assisted mode
   * would find: scoring/placement.py "off_board"), the text that says so, else "". */
  SlipForm.prototype.offBoard = function () {
    var where = this.where(), n = this.letters().length, B = this.options.config, S = this.options.strings;
    if (!where || n < 2) return "";
    var end = (where.vertical ? where.row : where.col) + n;  // the number of the word's last row or column
    if (end <= B.rows.length) return "";
    return D.text.fmt(where.vertical ? S.off_board_row : S.off_board_column,
                      {word: this.word(), place: D.coords.text(B, where.row, where.col, where.vertical), end: end});
  };
  /** Says (#slip-hint) whether the slip typed runs off the board; the text, or "". */
  SlipForm.prototype.hint = function () {
    var box = byId("slip-hint"), text = byId("slip-word").disabled ? "" : this.offBoard();
    box.hidden = !text;
    box.textContent = text;
    return text;
  };

  /** The slip typed ({word, coordinates, score}), or null after saying what is wrong. */
  SlipForm.prototype.read = function () {
    var S = this.options.strings, word = this.word();
    var coordinates = byId("slip-coords").value.trim().toUpperCase(), score = byId("slip-score").value.trim();
    if (!word) return this.refuse(S.word_missing, "slip-word");
    if (coordinates && !this.where()) {  // the example in the tournament's rows (Г8 / 8Г, not a look-alike of 38)
      var B = this.options.config;
      return this.refuse(D.text.fmt(S.coords_bad, {across: D.coords.text(B, 3, 7, false), down: D.coords.text(B, 3, 7, true)}),
                         "slip-coords");
    }
    if (score && !/^\d{1,4}$/.test(score)) return this.refuse(S.score_bad, "slip-score");
    this.message("");
    return {word: word, coordinates: coordinates.replace(/\s+/g, ""), score: score ? parseInt(score, 10) : null};
  };
  SlipForm.prototype.refuse = function (text, id) {
    this.message(text);
    byId(id).focus();
    return null;
  };

  /** The typed slip as ghost tiles of the board renderer (nothing until word and coordinates read). */
  SlipForm.prototype.ghosts = function () {
    var out = {}, where = this.where(), size = this.options.config.rows.length;
    if (!where) return out;
    this.letters().forEach(function (t, i) {
      var r = where.row + (where.vertical ? i : 0), c = where.col + (where.vertical ? 0 : i);
      if (r < size && c < size) out[r + "," + c] = {letter: t.letter, blank: t.blank, cls: "ghost"};
    });
    return out;
  };

  D.slip = {create: function (options) { return new SlipForm(options); }};
})();
