/* Shared by the tablet and the hall display: reading a board FEN (see scoring/board.py). */
(function () {
  "use strict";
  /** 15 rows of 15 squares: null or {letter, blank}. Upper case = tile, lower case = blank, * = blank apostrophe. */
  function parseFen(fen) {
    var rows = [];
    for (var r = 0; r < 15; r++) rows.push(new Array(15).fill(null));
    (fen || "").split("/").slice(0, 15).forEach(function (text, r) {
      var c = 0, i = 0;
      while (i < text.length && c < 15) {
        var m = /^\d+/.exec(text.slice(i));
        if (m) { c += parseInt(m[0], 10); i += m[0].length; continue; }
        var ch = text[i++];
        if (ch === "*") rows[r][c] = {letter: "'", blank: true};
        else { var up = ch.toUpperCase(); rows[r][c] = {letter: up, blank: ch !== up}; }
        c++;
      }
    });
    return rows;
  }
  window.DuplicateBoard = {parseFen: parseFen};
})();
