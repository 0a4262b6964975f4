/* Small helpers shared by every screen's script (tablet, hall display, arbiter console).
 *
 * Plain script, no build step: each file of static/js/ attaches one part to window.Duplicate and the pages
 * load them in order with <script defer>: text.js, coords.js, clock.js, board.js, then the screen's own.
 * Nothing here is in a human language: the texts come translated from the page (JSON blocks).
 */
(function () {
  "use strict";
  var D = window.Duplicate = window.Duplicate || {};

  function byId(id) { return document.getElementById(id); }

  /** The value of a JSON block rendered by the template ({{ value|json_script:"id" }}), or null. */
  function readJson(id) {
    var node = byId(id);
    return node ? JSON.parse(node.textContent) : null;
  }

  /** A translated text with %(name)s placeholders filled in. */
  function fmt(text, params) {
    return String(text == null ? "" : text).replace(/%\((\w+)\)s/g, function (_m, k) {
      return params && params[k] != null ? params[k] : "";
    });
  }

  /** A text that stands alone on a screen, its first letter a capital ("round 1: …" under the points). */
  function capital(text) {
    var s = String(text == null ? "" : text);
    return s.charAt(0).toUpperCase() + s.slice(1);
  }

  /** A new element with a class and a text. */
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text != null) node.textContent = text;
    return node;
  }

  /** The plural form of a whole number in a language, named by a number of that form as
   * tournament.labels.plural_forms() renders a counted text: "1" (one), "2" (few), "5" (many). The catalogues'
   * rules (Plural-Forms): ru, uk: 1, 21, 31… but not 11 → "1"; 2–4, 22–24… but not 12–14 → "2"; the rest → "5".
   * pl: 1 only → "1"; 2–4, 22–24… but not 12–14 → "2"; the rest (0, 5–21, 25–31…) → "5". fr: 0 and 1 → "1".
   * en and the others: 1 → "1". */
  function pluralKey(n, lang) {
    var a = Math.abs(n), d = a % 10, h = a % 100, few = d >= 2 && d <= 4 && (h < 12 || h > 14);
    if (lang === "ru" || lang === "uk") return d === 1 && h !== 11 ? "1" : few ? "2" : "5";
    if (lang === "pl") return a === 1 ? "1" : few ? "2" : "5";
    if (lang === "fr") return a <= 1 ? "1" : "2";
    return a === 1 ? "1" : "2";
  }

  /** A counted text in the plural form of n: its forms as tournament.labels.plural_forms() renders them, filled in
   * with params (by default {n: n}). Every number a script shows with a noun goes through here. */
  function plural(forms, n, lang, params) {
    var text = forms[pluralKey(n, lang)];
    return fmt(text == null ? forms["2"] : text, params || {n: n});
  }

  /** "%(n)s points" in the plural form of n (tournament.labels.points_forms()). */
  function points(forms, n, lang) { return plural(forms, n, lang); }

  /** A number as the hall writes it: a typographic minus (U+2212, as the PDFs print it) and, with digits, that many
   * decimals after the language's separator (a comma in ru, uk, pl, fr; a point in en): 87,5 in a Ukrainian hall. */
  function number(n, lang, digits) {
    var text = digits == null ? String(n) : Number(n).toFixed(digits);
    if (lang && lang !== "en") text = text.replace(".", ",");
    return text.replace("-", "\u2212");
  }

  /** localStorage as JSON; null or undefined removes the key; whether it was kept. Private mode: nothing is kept,
   * nothing breaks. */
  function save(key, value) {
    try {
      if (value === null || value === undefined) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
      return true;
    } catch (e) { return false; /* private mode: the page still works, without surviving a reload */ }
  }
  function load(key, fallback) {
    try {
      var v = localStorage.getItem(key);
      return v === null ? fallback : JSON.parse(v);
    } catch (e) { return fallback; }
  }

  /** A fetch response as {status, body} (body {} when it is not JSON). */
  function answer(response) {
    return response.json().catch(function () { return {}; }).then(function (body) {
      return {status: response.status, body: body || {}};
    });
  }

  /** Whether the version of an ETag ("W/\"12\"") is older than another's: another server process answering
   * from a memo a moment old. */
  function olderTag(tag, than) {
    var a = parseInt(String(tag || "").replace(/\D*/, ""), 10), b = parseInt(String(than || "").replace(/\D*/, ""), 10);
    return isFinite(a) && isFinite(b) && a < b;
  }

  function wait(ms) { return new Promise(function (resolve) { setTimeout(resolve, ms); }); }

  /** <select data-autosubmit>: the form is sent as soon as a value is picked (language pickers). */
  function autosubmit(root) {
    (root || document).querySelectorAll("select[data-autosubmit]").forEach(function (select) {
      select.addEventListener("change", function () { select.form.submit(); });
    });
  }

  D.text = {
    byId: byId, readJson: readJson, fmt: fmt, capital: capital, el: el, plural: plural, pluralKey: pluralKey, points: points, number: number, save: save,
    load: load, answer: answer,
    olderTag: olderTag, wait: wait, autosubmit: autosubmit
  };
})();
