/* Coordinates on the screens: how a square, a start square, a stored move and a slip are written, and how a
 * typed coordinate is shown while it is typed.
 *
 * The server decides the style (tournament.labels.board_config: rows, cols, convention, cyrillic,
 * cyrillic_input); this file only applies it, for the tablet, the hall display and the console alike:
 *   horizontal word: row label + column label (H8 in the duplicate convention, 8H in the English one),
 *   vertical word:   column label + row label (8H, H8).
 * Moves are stored as the engine writes them (duplicate convention, Latin rows: "H8 WORD"; scoring/coords.py);
 * slips as the player typed them (either script): both are shown in the tournament's rows.
 *
 * The letter of a coordinate is drawn apart wherever a coordinate is shown (span.coord-letter, a letter in a
 * box: hall.css), so that a row З is never read as the digit 3, О as 0, Б as 6: in texts (fill, fillFormat),
 * on the boards' labels (label), and in a coordinate input (field: the typed text drawn over the input with
 * its letter marked, and what it reads as echoed under it, or why it cannot be read).
 */
(function () {
  "use strict";
  var D = window.Duplicate = window.Duplicate || {};

  // What a typed coordinate may use (as scoring/coords.py reads it): Latin letters always, Cyrillic row
  // labels on a Cyrillic rule set (board.cyrillic_input).
  var LATIN = "ABCDEFGHIJKLMNO";
  var CYRILLIC = "АБВГДЕЖЗИКЛМНОП";
  var COORD = /^(\D)(\d{1,2})$|^(\d{1,2})(\D)$/;

  function english(board) { return board.convention === "english"; }

  /** The start square of a word and its direction as this board writes it. */
  function text(board, row, col, vertical) {
    return vertical ? board.cols[col] + board.rows[row] : board.rows[row] + board.cols[col];
  }

  /** A square's name (a tooltip, a screen reader): the letter label first, as players say it. */
  function square(board, row, col) {
    return english(board) ? board.cols[col] + board.rows[row] : board.rows[row] + board.cols[col];
  }

  function letterIndex(board, letter, anyScript) {
    var index = LATIN.indexOf(letter);
    if (index < 0 && (board.cyrillic_input || anyScript && !english(board))) index = CYRILLIC.indexOf(letter);
    return index;
  }

  /** A typed coordinate ("H8", "8h", "З8", "8H" …) as {row, col, vertical}, or null. anyScript: Cyrillic rows
   * are read on any rule set (a slip shown as the server reads it: tournament.labels.CoordStyle.coordinate). */
  function parse(board, typed, anyScript) {
    var m = COORD.exec(String(typed || "").toUpperCase().replace(/\s+/g, ""));
    if (!m) return null;
    var letterFirst = m[1] != null, letter = letterFirst ? m[1] : m[4], number = +(letterFirst ? m[2] : m[3]);
    var index = letterIndex(board, letter, anyScript);
    if (number < 1 || number > board.rows.length || index < 0) return null;
    if (english(board)) return {row: number - 1, col: index, vertical: letterFirst};  // 8H across, H8 down
    return {row: index, col: number - 1, vertical: !letterFirst};  // H8 across, 8H down
  }

  /** A stored coordinate ("H8" across, "8H" down; Latin rows) as {row, col, vertical}, or null. */
  function stored(coordinate) {
    var m = /^([A-O])(\d{1,2})$/.exec(coordinate) || /^(\d{1,2})([A-O])$/.exec(coordinate);
    if (!m) return null;
    var across = isNaN(+m[1]), letter = across ? m[1] : m[2], number = +(across ? m[2] : m[1]);
    if (number < 1 || number > 15) return null;
    return {row: LATIN.indexOf(letter), col: number - 1, vertical: !across};
  }

  /** A stored move ("H8 WORD") as this board writes it ("З8 WORD" for a Russian reader, "8H WORD" in the
   * English convention); anything else unchanged. */
  function move(board, text_) {
    var s = String(text_ || ""), space = s.indexOf(" ");
    var where = stored(space < 0 ? s : s.slice(0, space));
    if (!where) return s;
    return text(board, where.row, where.col, where.vertical) + (space < 0 ? "" : s.slice(space));
  }

  /** Coordinates as a player typed them (either script: "H6", "з6") as this board writes them ("З6" in a hall of
   * Cyrillic rows: a Latin H6 is never left to be read as the Cyrillic Н6); unreadable ones as typed. */
  function written(board, typed) {
    var where = parse(board, typed, true);
    return where ? text(board, where.row, where.col, where.vertical) : String(typed || "").trim();
  }

  /** A slip as the hall reads it ("З6 КаНТОНЫ 78"): its coordinates in the board's rows, word and score as given. */
  function slip(board, coordinates, word, score) {
    return [written(board, coordinates), word || "", score == null ? "" : score].join(" ").replace(/\s+/g, " ").trim();
  }

  /** A slip's or a move's text as typed or stored ("H6 КаНТОНЫ 78") with its leading coordinate in the board's
   * rows ("З6 КаНТОНЫ 78"); a text that does not start with a coordinate (a slip without one) unchanged. */
  function slipLine(board, text_) {
    var s = String(text_ == null ? "" : text_), space = s.indexOf(" ");
    var head = space < 0 ? s : s.slice(0, space), where = parse(board, head, true);
    return where ? text(board, where.row, where.col, where.vertical) + (space < 0 ? "" : s.slice(space)) : s;
  }

  /** The letter of a coordinate, drawn apart (hall.css: a letter in a box). */
  function letterSpan(letter) {
    var span = document.createElement("span");
    span.className = "coord-letter";
    span.textContent = letter;
    return span;
  }

  /** Appends a written coordinate, move or slip ("З8 WORD", "8З → across") to el, the letter of its leading
   * coordinate marked; anything else as plain text. */
  function append(el, written_) {
    var s = String(written_ == null ? "" : written_), space = s.indexOf(" ");
    var m = COORD.exec(space < 0 ? s : s.slice(0, space));
    if (!m) { el.appendChild(document.createTextNode(s)); return el; }
    var letterFirst = m[1] != null;
    if (!letterFirst) el.appendChild(document.createTextNode(m[3]));
    el.appendChild(letterSpan(letterFirst ? m[1] : m[4]));
    el.appendChild(document.createTextNode((letterFirst ? m[2] : "") + (space < 0 ? "" : s.slice(space))));
    return el;
  }

  /** Puts a written move or coordinate ("З8 WORD", "8З → across") into element el, the letter of the
   * coordinate in a span.coord-letter (hall.css draws it apart: a row З is never read as the digit 3). */
  function fill(el, written_) {
    el.textContent = "";
    return append(el, written_);
  }

  /** Puts a translated text with %(name)s placeholders into el; the values named in `marked` are coordinates,
   * moves or row letters, their letter drawn apart. */
  function fillFormat(el, template, values, marked) {
    var parts = String(template == null ? "" : template).split(/%\((\w+)\)s/);
    el.textContent = "";
    parts.forEach(function (part, i) {
      if (i % 2 === 0) { if (part) el.appendChild(document.createTextNode(part)); return; }
      var value = values && values[part] != null ? String(values[part]) : "";
      if ((marked || []).indexOf(part) < 0) el.appendChild(document.createTextNode(value));
      else if (/^\D$/.test(value)) el.appendChild(letterSpan(value));
      else append(el, value);
    });
    return el;
  }

  /** A board's label: a letter (a row in the duplicate convention, a column in the English one) drawn apart. */
  function label(el, text_) {
    el.textContent = "";
    if (/^\D$/.test(text_)) el.appendChild(letterSpan(text_));
    else el.textContent = text_;
    return el;
  }

  // -- a coordinate input -------------------------------------------------------------------------------------

  var texts = null;
  /** The texts of the echo, in the page's language (the page's "coord-texts" block: tournament.labels). */
  function echoTexts() {
    if (!texts) texts = D.text.readJson("coord-texts") || {};
    return texts;
  }

  /** What a typed coordinate reads as, into el: the coordinate in the board's rows and the square it names
   * ("З9 — row З, column 9, horizontal"), or why it cannot be read; nothing for an empty field. */
  function echo(el, board, typed) {
    var S = echoTexts(), t = String(typed || "").replace(/\s+/g, "").toUpperCase(), where = parse(board, t);
    el.hidden = !t;
    el.classList.toggle("bad", !!t && !where);
    el.classList.toggle("ok", !!where);
    if (!t) { el.textContent = ""; return el; }
    if (where) {
      return fillFormat(el, where.vertical ? S.down : S.across, {
        coord: text(board, where.row, where.col, where.vertical), row: board.rows[where.row], col: board.cols[where.col]
      }, ["coord", "row", "col"]);
    }
    var letters = english(board) ? board.cols : board.rows;
    return fillFormat(el, /\D/.test(t) ? S.bad : S.no_letter, {
      typed: t, first: letters[0], last: letters[letters.length - 1],
      across: text(board, 3, 7, false), down: text(board, 3, 7, true)  // Г8 / 8Г: no look-alike of a digit
    }, ["typed", "first", "last", "across", "down"]);
  }

  var MIRRORED = ["fontFamily", "fontSize", "fontWeight", "fontStyle", "letterSpacing", "textTransform", "textAlign",
    "paddingTop", "paddingRight", "paddingBottom", "paddingLeft", "borderTopWidth", "borderRightWidth",
    "borderBottomWidth", "borderLeftWidth"];

  /**
   * A coordinate input (the tablet's slip, the training slip, the console's paper slip): the typed text is
   * drawn over the input with its letter marked (the input's own text made transparent, its caret kept), what
   * it reads as is echoed under it (echo), and a readable coordinate is rewritten in the board's rows when the
   * field is left (a Latin H4 in a hall of Cyrillic rows becomes З4: the same square, shown as the hall reads
   * it). Every change of the value is followed, a script's as well as the keyboard's. Without this script the
   * input is a plain input. options.after: the element the echo goes after (a line of the form's width), else
   * the field itself.
   */
  function field(input, board, options) {
    if (!input || !board || input.dataset.coordField) return null;
    input.dataset.coordField = "1";
    var wrap = document.createElement("span"), mirror = document.createElement("span");
    var line = mirror.appendChild(document.createElement("span")), out = document.createElement("p");
    wrap.className = "coord-field mirrored";
    mirror.className = "coord-mirror";
    mirror.setAttribute("aria-hidden", "true");
    out.className = "coord-echo";
    out.id = input.id + "-echo";
    out.setAttribute("aria-live", "polite");
    var focused = document.activeElement === input;  // moved into the wrapper: a focused field keeps the focus
    input.parentNode.insertBefore(wrap, input);
    wrap.appendChild(input);
    wrap.appendChild(mirror);
    if (focused) input.focus();
    var after = options && options.after || wrap;
    after.parentNode.insertBefore(out, after.nextSibling);
    var described = input.getAttribute("aria-describedby");
    input.setAttribute("aria-describedby", (described ? described + " " : "") + out.id);

    function shape() {
      var style = window.getComputedStyle(input);
      MIRRORED.forEach(function (name) { mirror.style[name] = style[name]; });
    }
    function update() {
      fill(line, input.value);
      mirror.scrollLeft = input.scrollLeft;
      echo(out, board, input.value);
    }
    // a script setting input.value (a slip put back in the form, a square tapped) is followed as well
    var own = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value");
    Object.defineProperty(input, "value", {
      configurable: true,
      get: function () { return own.get.call(input); },
      set: function (v) { own.set.call(input, v); update(); }
    });
    input.addEventListener("input", update);
    input.addEventListener("scroll", function () { mirror.scrollLeft = input.scrollLeft; });
    input.addEventListener("change", function () {  // left: in the board's rows
      var typed = input.value.replace(/\s+/g, ""), where = parse(board, typed);
      if (where && text(board, where.row, where.col, where.vertical) !== typed.toUpperCase()) {
        input.value = text(board, where.row, where.col, where.vertical);
      }
    });
    window.addEventListener("resize", shape);
    shape();
    update();
    return {update: update, echo: out};
  }

  D.coords = {text: text, square: square, parse: parse, move: move, written: written, slip: slip, slipLine: slipLine, fill: fill,
    fillFormat: fillFormat, label: label, echo: echo, field: field};
})();
