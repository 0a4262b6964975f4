/* The server's clock and the deadline countdown, for the tablet, the hall display and the arbiter console.
 *
 * A screen's own clock may be minutes off: every answer of the server gives its time (X-Server-Time in ms,
 * or server_time in a JSON body); the offset of the quickest round trip of the last 12 is kept, and the
 * countdown is the deadline minus the server's time now.
 */
(function () {
  "use strict";
  var D = window.Duplicate = window.Duplicate || {};
  var SAMPLES = 12;

  /** Milliseconds of an ISO timestamp (microseconds cut to milliseconds), NaN without one. */
  function parseTime(iso) {
    if (!iso) return NaN;
    if (typeof iso === "number") return iso;
    return Date.parse(String(iso).replace(/(\.\d{3})\d+/, "$1"));
  }

  /** The time of day of a timestamp as the server wrote it (the hall's time zone): "14:05:09". */
  function timeOfDay(iso) {
    var m = /T(\d\d:\d\d:\d\d)/.exec(String(iso || ""));
    return m ? m[1] : "";
  }

  /** Seconds as a countdown: "4:07". */
  function format(seconds) {
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }

  /** How urgent a countdown looks: ok, orange (30 s or less), red (10 s or less). */
  function level(seconds) {
    return seconds <= 10 ? "red" : seconds <= 30 ? "orange" : "ok";
  }

  function ServerClock() {
    this.offset = 0;
    this.samples = [];
  }
  /** One answer: the server's time (ms) seen between t0 and t1 (this screen's Date.now()). */
  ServerClock.prototype.sample = function (serverMs, t0, t1) {
    if (!isFinite(serverMs)) return;
    this.samples.push({rtt: t1 - t0, off: serverMs - (t0 + t1) / 2});
    if (this.samples.length > SAMPLES) this.samples.shift();
    var best = this.samples[0];
    this.samples.forEach(function (s) { if (s.rtt < best.rtt) best = s; });
    this.offset = best.off;
  };
  /** The X-Server-Time header of a fetch response. */
  ServerClock.prototype.sampleResponse = function (response, t0, t1) {
    this.sample(Number(response.headers.get("X-Server-Time")), t0, t1);
  };
  /** The server's time written into this page when it was made (between the request and the first byte). */
  ServerClock.prototype.samplePage = function (iso) {
    var nav = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    var now = Date.now(), since = performance.now();
    if (nav && nav.responseStart > 0) this.sample(parseTime(iso), now - (since - nav.requestStart), now - (since - nav.responseStart));
    else this.sample(parseTime(iso), now - since, now);
  };
  ServerClock.prototype.now = function () { return Date.now() + this.offset; };
  /** Whole seconds until a deadline (ISO or ms) on the server's clock, 0 once it passed; null without one. */
  ServerClock.prototype.left = function (deadline) {
    var d = parseTime(deadline);
    return isFinite(d) ? Math.max(0, Math.ceil((d - this.now()) / 1000)) : null;
  };
  /** Whether a deadline (ISO or ms) has passed on the server's clock (false without one). */
  ServerClock.prototype.passed = function (deadline) {
    var d = parseTime(deadline);
    return isFinite(d) && this.now() >= d;
  };

  D.clock = {
    create: function () { return new ServerClock(); },
    parseTime: parseTime, timeOfDay: timeOfDay, format: format, level: level
  };
})();
