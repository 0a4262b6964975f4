/* Progress of work done by a Celery worker, polled until it is over: a print job (#pdf-job) and a
 * lexicon build (#build-progress), each with a <progress> bar. Texts come translated from the page (JSON blocks). */
(function () {
  "use strict";

  function readJson(id) { var el = document.getElementById(id); return el ? JSON.parse(el.textContent) : null; }
  function getJson(url) {
    return fetch(url, {credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then(function (r) { return r.json(); });
  }

  function printJob(box) {
    var job = readJson("pdf-job-data"), texts = readJson("pdf-job-texts") || {};
    function show(j) {
      document.getElementById("pdf-bar").value = j.progress || 0;
      var text = j.state === "done" ? (j.cached ? texts.cached : texts.done) : (texts[j.state] || "");
      if (j.state === "running") text += " " + (j.progress || 0) + " %";
      document.getElementById("pdf-stage").textContent = text;
      var err = document.getElementById("pdf-error");
      err.hidden = !j.error;
      err.textContent = j.error || "";
      document.getElementById("pdf-worker").hidden = !j.worker_hint;
      if (j.state === "done" && j.download_url) {
        document.getElementById("pdf-open").href = j.download_url;
        document.getElementById("pdf-download").href = j.download_url + "?download=1";
        document.getElementById("pdf-done").hidden = false;
      }
    }
    function going(j) { return j.state === "queued" || j.state === "running"; }
    function poll() {
      getJson(box.dataset.statusUrl)
        .then(function (j) { show(j); if (going(j)) setTimeout(poll, 700); })
        .catch(function () { setTimeout(poll, 2000); });
    }
    show(job);
    if (going(job)) setTimeout(poll, 400);
  }

  function lexiconBuild(box) {
    function poll() {
      getJson(box.dataset.statusUrl)
        .then(function (s) {
          document.getElementById("build-status").textContent = s.status_label;
          document.getElementById("build-percent").textContent = s.progress;
          document.getElementById("build-bar").value = s.progress;
          if (s.done) window.location.reload(); else setTimeout(poll, 1000);
        })
        .catch(function () { setTimeout(poll, 3000); });
    }
    setTimeout(poll, 1000);
  }

  var job = document.getElementById("pdf-job"), build = document.getElementById("build-progress");
  if (job) printJob(job);
  if (build) lexiconBuild(build);
})();
