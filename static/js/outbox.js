/* The tablet's slip outbox: a slip is never lost.
 *
 * A slip handed in is kept in localStorage before anything is sent, then sent in order; without an answer
 * (network cut, server restarting) it is sent again, with the same Idempotency-Key, after 1, 2, 4 … 30 s
 * (or at once when the network comes back), across reloads too. The server stores a key once: a retry whose
 * first try did arrive gets the same slip back. An item leaves the outbox only with the server's answer:
 *   received (200/201), late (409 time_over), refused (any other 4xx but 408/429), logged out (401: kept).
 * Two tabs of the same tablet share the outbox: each change starts from what localStorage holds (never writes
 * an older copy over another tab's slip), and a change made by the other tab is taken up at once.
 */
(function () {
  "use strict";
  var D = window.Duplicate = window.Duplicate || {};
  var T = D.text;

  function uuid() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var s = "";
    for (var i = 0; i < 32; i++) s += Math.floor(Math.random() * 16).toString(16);
    return s.slice(0, 8) + "-" + s.slice(8, 12) + "-" + s.slice(12, 16) + "-" + s.slice(16, 20) + "-" + s.slice(20);
  }

  /** The text of a slip: "H8 WORD 42". */
  function slipText(coordinates, word, score) {
    return [coordinates, word, score == null ? "" : score].join(" ").trim();
  }

  /**
   * options: storageKey, url, token, lang (the page's language: the server's answers are in it), and the callbacks
   *   settled(result): the server answered for a slip: {status: received|late|refused, round, key, text,
   *     slip (the stored slip), code, detail};
   *   loggedOut(): the server no longer knows the token (the slips stay in the outbox);
   *   changed(): the outbox or its sending state changed (redraw the receipt).
   */
  function Outbox(options) {
    this.options = options;
    this.items = T.load(options.storageKey, []);
    this.sending = false;
    this.stopped = false;
    this.attempt = 0;
    this.timer = null;
    this.stored = true;  // localStorage keeps what we write (not in private mode)
    var self = this;
    window.addEventListener("storage", function (e) {  // another tab of this tablet changed the outbox
      if (e.key !== options.storageKey || self.stopped) return;
      self.sync();
      options.changed();
      self.flush();
    });
  }

  /** Keeps a slip ({round, word, coordinates, score}) and sends it. */
  Outbox.prototype.add = function (slip) {
    var item = {key: uuid(), round: slip.round, word: slip.word, coordinates: slip.coordinates, score: slip.score,
      made: Date.now()};
    this.sync();
    this.items.push(item);  // kept before anything is sent
    this.keep();
    this.options.changed();
    this.flush();
    return item;
  };
  Outbox.prototype.keep = function () { this.stored = T.save(this.options.storageKey, this.items); };
  /** The outbox as localStorage holds it (another tab may have added or settled a slip), with this page's own
   * copy of each item (its next try); nothing is dropped when localStorage does not keep what we write. */
  Outbox.prototype.sync = function () {
    if (!this.stored) return;
    var mine = {};
    this.items.forEach(function (i) { mine[i.key] = i; });
    this.items = T.load(this.options.storageKey, this.items).map(function (i) { return mine[i.key] || i; });
  };
  Outbox.prototype.forRound = function (round) { return this.items.filter(function (i) { return i.round === round; }); };
  Outbox.prototype.waiting = function () { return this.items.length > 0; };
  /** Seconds until the next try of the first slip (null: being sent, or none waiting). */
  Outbox.prototype.nextTry = function () {
    var first = this.items[0];
    if (this.sending || !first || !first.next) return null;
    return Math.max(1, Math.round((first.next - Date.now()) / 1000));
  };
  Outbox.prototype.stop = function () { this.stopped = true; clearTimeout(this.timer); };

  /** The network is back: send now, the waits start over. */
  Outbox.prototype.resume = function () {
    this.attempt = 0;
    clearTimeout(this.timer);
    this.flush();
  };
  /** A request just went through: do not wait long for the next try. */
  Outbox.prototype.nudge = function () {
    var first = this.items[0];
    if (first && !this.sending && first.next && first.next - Date.now() > 2000) this.flush();
  };

  Outbox.prototype.flush = function () {
    if (this.sending || !this.items.length || this.stopped) return;
    clearTimeout(this.timer);
    var self = this, item = this.items[0];
    this.sending = true;
    item.next = null;
    this.options.changed();
    fetch(this.options.url, {
      method: "POST", cache: "no-store",
      headers: this.headers(item.key),
      body: JSON.stringify({word: item.word, coordinates: item.coordinates, score: item.score, round: item.round})
    }).then(T.answer).then(function (res) {
      self.sending = false;
      var status = res.status, code = res.body.code;
      if (status === 200 || status === 201) self.settle(item, {status: "received", slip: res.body});
      else if (status === 409 && code === "time_over") self.settle(item, {status: "late", slip: res.body.slip, detail: res.body.detail});
      else if (status === 401) self.options.loggedOut();
      else if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
        self.settle(item, {status: "refused", code: code, detail: res.body.detail});
      } else self.retryLater(item);
    }).catch(function () {  // no answer: the network (the next successful poll or 'online' sends it again)
      self.sending = false;
      self.retryLater(item);
    });
  };

  /** The request's headers: the server answers (a refusal's reason) in the page's language, not the browser's. */
  Outbox.prototype.headers = function (key) {
    var h = {"Authorization": "Tablet " + this.options.token, "Content-Type": "application/json",
      "Accept": "application/json", "Idempotency-Key": key};
    if (this.options.lang) h["Accept-Language"] = this.options.lang;
    return h;
  };

  Outbox.prototype.settle = function (item, result) {
    this.sync();
    this.items = this.items.filter(function (i) { return i.key !== item.key; });
    this.keep();
    this.attempt = 0;
    result.round = item.round;
    result.key = item.key;
    result.text = slipText(item.coordinates, item.word, item.score);
    this.options.settled(result);
    this.flush();
  };

  Outbox.prototype.retryLater = function (item) {
    this.attempt += 1;
    var delay = Math.min(30000, 1000 * Math.pow(2, this.attempt - 1)) * (0.8 + Math.random() * 0.4);
    item.next = Date.now() + delay;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.flush.bind(this), delay);
    this.options.changed();
  };

  D.outbox = {create: function (options) { return new Outbox(options); }, slipText: slipText};
})();
