/* The board on every web screen (player tablet, hall display, arbiter console): reading a board FEN
 * (see scoring/board.py), drawing tiles, and the one board renderer.
 *
 * The board config comes from the server (tournament.labels.board_config): row and column labels,
 * premium classes and their texts, tile values, letter colours. Squares are <span class="sq {premium}">
 * with data-r / data-c (0-based); labels <span class="lbl row|col|corner"> (a letter in a span.coord-letter:
 * coords.js, label); rows are wrapped in
 * <div class="board-row" role="row"> (display: contents) so that screen readers read a table.
 */
(function () {
  "use strict";
  var D = window.Duplicate = window.Duplicate || {};
  var el = D.text.el;

  /** The squares of a FEN: rows of null or {letter, blank}. Upper case = tile, lower case = blank,
   * * = blank apostrophe, digits = empty squares. */
  function parseFen(fen, size) {
    size = size || 15;
    var rows = [];
    for (var r = 0; r < size; r++) rows.push(new Array(size).fill(null));
    (fen || "").split("/").slice(0, size).forEach(function (text, r) {
      var c = 0, i = 0;
      while (i < text.length && c < size) {
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

  /** [row, col] of every tile of `after` that `before` does not have (FENs). */
  function newSquares(before, after) {
    var a = parseFen(before), b = parseFen(after), out = [];
    for (var r = 0; r < b.length; r++) for (var c = 0; c < b.length; c++) if (b[r][c] && !a[r][c]) out.push([r, c]);
    return out;
  }

  /** A tile: its letter (a blank's in lower case; "?" = a blank on a rack), its value, its colour (Literaki). */
  function tile(board, letter, blank, big) {
    var t = el("span", "tile" + (blank ? " blank" : "") + (big ? " big" : ""));
    t.appendChild(el("span", "l", letter === "?" ? "" : blank && letter !== "'" ? letter.toLowerCase() : letter));
    var value = blank || letter === "?" ? board.blank_value : board.values[letter];
    if (value != null) t.appendChild(el("span", "v", String(value)));
    if (board.colours[letter] && !blank) t.dataset.colour = board.colours[letter];
    return t;
  }

  /**
   * Draws the empty board into `box` (its content is replaced). options:
   *   onSquare(row, col, square): a tap on a square (the board is then an ARIA grid, else a table);
   *   names: each square gets its name as a tooltip (H8 …);
   *   label: the board's accessible name when the element has none.
   */
  function Board(box, config, options) {
    options = options || {};
    this.box = box;
    this.config = config;
    this.size = config.premiums.length;
    this.squares = [];
    var interactive = !!options.onSquare, cellRole = interactive ? "gridcell" : "cell";
    box.innerHTML = "";
    box.classList.add("board");
    box.setAttribute("role", interactive ? "grid" : "table");
    if (options.label && !box.getAttribute("aria-label")) box.setAttribute("aria-label", options.label);
    var head = row(box);
    head.appendChild(el("span", "lbl corner")).setAttribute("role", "columnheader");
    // a label that is a letter (rows; columns in the English convention) is drawn apart: З never read as 3
    config.cols.forEach(function (c) { D.coords.label(head.appendChild(el("span", "lbl col")), c).setAttribute("role", "columnheader"); });
    for (var r = 0; r < this.size; r++) {
      var line = row(box), squares = [];
      D.coords.label(line.appendChild(el("span", "lbl row")), config.rows[r]).setAttribute("role", "rowheader");
      for (var c = 0; c < this.size; c++) {
        var sq = el("span", "sq " + (config.premiums[r][c] || ""));
        sq.dataset.r = r;
        sq.dataset.c = c;
        sq.setAttribute("role", cellRole);
        if (options.names) sq.title = D.coords.square(config, r, c);
        if (interactive) sq.addEventListener("click", clicked(options.onSquare, r, c));
        line.appendChild(sq);
        squares.push(sq);
      }
      this.squares.push(squares);
    }
  }
  function row(box) {
    var line = el("div", "board-row");
    line.setAttribute("role", "row");
    box.appendChild(line);
    return line;
  }
  function clicked(handler, r, c) { return function (e) { handler(r, c, e.currentTarget); }; }

  Board.prototype.square = function (r, c) { return this.squares[r][c]; };

  /**
   * The tiles of a FEN, and on top of them:
   *   fresh: [[row, col], …] tiles to highlight (the last move), class "new";
   *   ghosts: {"row,col": {letter, blank, cls}} tiles not on the board yet (a typed slip, tiles placed by
   *     hand): drawn with class cls on empty squares; a square already holding a tile gets class "through";
   *   start: {row, col} the start square chosen, class "start".
   */
  Board.prototype.draw = function (fen, marks) {
    marks = marks || {};
    var cells = parseFen(fen, this.size), fresh = {}, ghosts = marks.ghosts || {}, start = marks.start;
    var premiums = this.config.premiums, texts = this.config.premium_text || {}, mid = Math.floor(this.size / 2);
    (marks.fresh || []).forEach(function (rc) { fresh[rc[0] + "," + rc[1]] = true; });
    for (var r = 0; r < this.size; r++) {
      for (var c = 0; c < this.size; c++) {
        var sq = this.squares[r][c], t = cells[r][c], key = r + "," + c, g = ghosts[key];
        sq.innerHTML = "";
        sq.classList.toggle("has-tile", !!t);
        sq.classList.toggle("new", !!(t && fresh[key]));
        sq.classList.toggle("start", !!(start && start.row === r && start.col === c));
        sq.classList.toggle("through", !!(g && t));
        if (t) {
          sq.appendChild(tile(this.config, t.letter, t.blank));
        } else if (g) {
          var ghost = tile(this.config, g.letter, g.blank);
          if (g.cls) ghost.classList.add(g.cls);
          sq.appendChild(ghost);
        } else if (r === mid && c === mid) {
          sq.appendChild(el("span", "pl", "★"));
        } else if (texts[premiums[r][c]]) {
          sq.appendChild(el("span", "pl", texts[premiums[r][c]]));
        }
      }
    }
  };

  D.board = {
    parseFen: parseFen, newSquares: newSquares, tile: tile,
    create: function (box, config, options) { return new Board(box, config, options); }
  };
})();
