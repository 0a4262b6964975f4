/* Server push: an EventSource on the tournament's stream (/live/stream/<slug>/) when the page's config has
 * urls.stream. Every "state" event is a version answer ({version, server_time, round}), an "own" event a tablet's
 * whole state (what /api/tablet/state/ answers: any change but an open); "ping" events say the
 * stream is alive. The stream counts as up from its first event on (a proxy that buffers never delivers one),
 * and as down after an error or WATCHDOG_MS without an event; the page polls while it is down (and every
 * few seconds anyway, as a check) and the stream is opened again after a pause.
 */
(function () {
  "use strict";
  var D = window.Duplicate = window.Duplicate || {};
  var WATCHDOG_MS = 75000, REOPEN_MS = 5000;  // the server pings every 30 s

  D.stream = {
    /** opts: url (null: no stream), onState(body), onOwn(body) (an "own" event: a logged-in tablet's whole
     * state, sent with any change but an open), onSlips(body) (a "slips" event: the arbiter's live count,
     * asked with ?slips=1), onChange(up). Returns {up, close()}. */
    create: function (opts) {
      var api = {up: false, close: function () {}};
      if (!opts.url || !window.EventSource) return api;
      var source = null, reopen = null, watchdog = null;

      function set(up) {
        if (api.up === up) return;
        api.up = up;
        if (opts.onChange) opts.onChange(up);
      }
      function alive() {
        set(true);
        clearTimeout(watchdog);
        watchdog = setTimeout(broken, WATCHDOG_MS);
      }
      function broken() {
        clearTimeout(watchdog);
        if (source) source.close();
        source = null;
        set(false);
        clearTimeout(reopen);
        reopen = setTimeout(open, REOPEN_MS + Math.random() * REOPEN_MS);
      }
      function open() {
        source = new EventSource(opts.url);
        function listen(name, handler) {  // an event whose data is JSON: alive, then the handler
          source.addEventListener(name, function (e) {
            alive();
            var body = null;
            try { body = JSON.parse(e.data); } catch (_err) { return; }
            if (handler) handler(body);
          });
        }
        listen("state", opts.onState);
        listen("own", opts.onOwn || opts.onState);
        listen("slips", opts.onSlips);
        source.addEventListener("ping", alive);
        source.addEventListener("error", function () {
          // EventSource reconnects by itself (the server's retry); the page polls meanwhile
          set(false);
          if (source && source.readyState === 2) broken();
        });
      }
      api.close = function () {
        clearTimeout(watchdog);
        clearTimeout(reopen);
        if (source) source.close();
        source = null;
        set(false);
      };
      open();
      return api;
    }
  };
})();
