/* Coordinates on the screens: how a square, a start square and a stored move are written.
 *
 * The server decides the style (tournament.labels.board_config: rows, cols, convention, cyrillic,
 * cyrillic_input); this file only applies it, for the tablet and the hall display alike:
 *   horizontal word: row label + column label (H8 in the duplicate convention, 8H in the English one),
 *   vertical word:   column label + row label (8H, H8).
 * Moves are stored as the engine writes them (duplicate convention, Latin rows: "H8 WORD"; scoring/coords.py).
 */
(function () {
  "use strict";
  var D = window.Duplicate = window.Duplicate || {};

  // What a typed coordinate may use (as scoring/coords.py reads it): Latin letters always, Cyrillic row
  // labels on a Cyrillic rule set (board.cyrillic_input).
  var LATIN = "ABCDEFGHIJKLMNO";
  var CYRILLIC = "АБВГДЕЖЗИКЛМНОП";

  function english(board) { return board.convention === "english"; }

  /** The start square of a word and its direction as this board writes it. */
  function text(board, row, col, vertical) {
    return vertical ? board.cols[col] + board.rows[row] : board.rows[row] + board.cols[col];
  }

  /** A square's name (a tooltip, a screen reader): the letter label first, as players say it. */
  function square(board, row, col) {
    return english(board) ? board.cols[col] + board.rows[row] : board.rows[row] + board.cols[col];
  }

  function letterIndex(board, letter) {
    var index = LATIN.indexOf(letter);
    if (index < 0 && board.cyrillic_input) index = CYRILLIC.indexOf(letter);
    return index;
  }

  /** A typed coordinate ("H8", "8h", "З8", "8H" …) as {row, col, vertical}, or null. */
  function parse(board, typed) {
    var t = String(typed || "").toUpperCase().replace(/\s+/g, "");
    var m = /^(\D)(\d{1,2})$/.exec(t), letter, number, letterFirst;
    if (m) { letter = m[1]; number = +m[2]; letterFirst = true; } else {
      m = /^(\d{1,2})(\D)$/.exec(t);
      if (!m) return null;
      letter = m[2]; number = +m[1]; letterFirst = false;
    }
    var index = letterIndex(board, letter);
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

  /** Puts a written move or coordinate ("З8 WORD", "8З → across") into element el, the letter of the
   * coordinate in a span.coord-letter (hall.css draws it apart: a row З is never read as the digit 3). */
  function fill(el, written) {
    var s = String(written || ""), space = s.indexOf(" "), head = space < 0 ? s : s.slice(0, space);
    var m = /^(\D)(\d{1,2})$/.exec(head) || /^(\d{1,2})(\D)$/.exec(head);
    el.textContent = "";
    if (!m) { el.textContent = s; return el; }
    var letterFirst = isNaN(+m[1]), letter = document.createElement("span");
    letter.className = "coord-letter";
    letter.textContent = letterFirst ? m[1] : m[2];
    if (!letterFirst) el.appendChild(document.createTextNode(m[1]));
    el.appendChild(letter);
    el.appendChild(document.createTextNode((letterFirst ? m[2] : "") + (space < 0 ? "" : s.slice(space))));
    return el;
  }

  D.coords = {text: text, square: square, parse: parse, move: move, fill: fill};
})();
