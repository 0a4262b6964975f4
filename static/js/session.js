/* The tablet's session and its login page.
 *
 * The token returned at login is kept in localStorage and in the tablet_token cookie (so the server renders
 * the right tournament on a reload); a tablet whose cookie went away gets it back from localStorage.
 * /tablet/login/?code=XXXX (the player's QR code) logs in at once. Loaded by the login page and the tablet.
 */
(function () {
  "use strict";
  var D = window.Duplicate, T = D.text, byId = T.byId;
  var TOKEN_KEY = "duplicate.tablet.token";
  var COOKIE_AGE = 14 * 24 * 3600;

  function setCookie(value, age) {
    document.cookie = "tablet_token=" + encodeURIComponent(value) + "; Path=/; Max-Age=" + age + "; SameSite=Lax" +
      (location.protocol === "https:" ? "; Secure" : "");
  }
  function getCookie() {
    var m = document.cookie.match(/(?:^|;\s*)tablet_token=([^;]*)/);
    return m ? decodeURIComponent(m[1]) : "";
  }

  D.session = {
    /** The token of this tablet ("" or null: not logged in). */
    token: function () { return getCookie() || T.load(TOKEN_KEY, null); },
    /** Keeps the token for the tournament (localStorage and cookie). */
    keep: function (token) {
      T.save(TOKEN_KEY, token);
      setCookie(token, COOKIE_AGE);
    },
    forget: function () {
      T.save(TOKEN_KEY, null);
      setCookie("", 0);
    }
  };

  T.autosubmit();  // the language picker
  if (byId("login-form")) loginPage();

  function loginPage() {
    var cfg = T.readJson("login-config"), S = T.readJson("login-strings");
    var input = byId("login-code"), msg = byId("login-message"), button = byId("login-submit");

    function show(text, kind) {
      msg.hidden = !text;
      msg.textContent = text || "";
      msg.className = "tb-message " + (kind || "");
    }
    function submit(code) {
      code = (code || "").replace(/\s+/g, "");
      if (!code) { input.focus(); return; }
      button.disabled = true;
      show(S.logging_in, "info");
      fetch(cfg.urls.login, {
        method: "POST", cache: "no-store", headers: {"Content-Type": "application/json", "Accept": "application/json"},
        // the language the player picked (the switch), if any: the server says a refusal in it, else in the hall's
        body: JSON.stringify(cfg.chosen ? {code: code, language: cfg.chosen} : {code: code})
      }).then(T.answer).then(function (res) {
        if (res.status === 200 && res.body.token) {
          D.session.keep(res.body.token);
          location.replace(cfg.urls.app);
          return;
        }
        button.disabled = false;
        // a card replaced by a new one is told so (the server's words: the hall's language), not "wrong code"
        show(res.status === 429 ? S.too_many : res.body.code === "code_replaced" && res.body.detail ? res.body.detail :
             S.bad_code, "error");
      }).catch(function () {
        button.disabled = false;
        show(S.network, "error");
      });
    }
    if (!input.value && cfg.expired) {
      T.save(TOKEN_KEY, null);
      show(S.expired, "error");
    } else if (!input.value && T.load(TOKEN_KEY, null)) {  // logged in before, the cookie went away: put it back
      setCookie(T.load(TOKEN_KEY, null), COOKIE_AGE);
      location.replace(cfg.urls.app);
      return;
    }
    byId("login-form").addEventListener("submit", function (e) { e.preventDefault(); submit(input.value); });
    if (input.value) {  // /tablet/login/?code=XXXX (QR code): log in at once, and drop the code from the address
      history.replaceState(null, "", location.pathname);
      submit(input.value);
    }
  }
})();
