/* The tablet's reading setting: large letters and high contrast (the classes tb-large and tb-contrast on <html>),
 * kept on this device in localStorage — a logout, a reload or another player's login on the same tablet keep it.
 *
 * Loaded without defer in the <head> of the tablet's pages (login and game): the classes are set before the first
 * paint, so the page never shows itself in the other look first. Its toggles (button[data-view-toggle], one on each
 * page's top bar) are wired once the page is read; each says whether the setting is on (aria-pressed).
 * Needs nothing of the other scripts (it runs before them).
 */
(function () {
  "use strict";
  var KEY = "duplicate.tablet.view", LARGE = "large", root = document.documentElement;

  function kept() {
    try { return JSON.parse(localStorage.getItem(KEY)) === LARGE; } catch (e) { return false; }
  }
  function keep(on) {
    try {
      if (on) localStorage.setItem(KEY, JSON.stringify(LARGE));
      else localStorage.removeItem(KEY);
    } catch (e) { /* private mode: the setting lasts until the page is left */ }
  }
  function show(on) {
    root.classList.toggle("tb-large", on);
    root.classList.toggle("tb-contrast", on);
    var toggles = document.querySelectorAll("[data-view-toggle]");
    for (var i = 0; i < toggles.length; i++) toggles[i].setAttribute("aria-pressed", on ? "true" : "false");
  }

  show(kept());
  document.addEventListener("DOMContentLoaded", function () {
    show(kept());
    var toggles = document.querySelectorAll("[data-view-toggle]");
    for (var i = 0; i < toggles.length; i++) {
      toggles[i].addEventListener("click", function () {
        var on = !root.classList.contains("tb-large");
        keep(on);
        show(on);
      });
    }
  });
  // another tab of the same tablet changed it
  window.addEventListener("storage", function (e) { if (e.key === KEY) show(kept()); });
})();
