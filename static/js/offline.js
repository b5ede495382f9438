// Table Companion: a table page the service worker answered from its copy, with no connection
// or with a proxy's error page instead of the app's (static/js/sw.js adds this script and
// <body data-offline-copy> to that copy only). The note (#offline-note, tables/table.html)
// says so; the play fragment the worker kept last is put in if it is newer than the copy.
// The first live answer from the app ends the note; meanwhile the outbox (outbox.js) shows
// the entries waiting on this phone and sends them when the connection is back.
(function () {
  "use strict";
  var note = document.getElementById("offline-note"), play = document.getElementById("play");
  var live = document.getElementById("live");
  if (!document.body.hasAttribute("data-offline-copy") || !note) return;
  note.hidden = false;
  function back(event) {
    var ctx = event.detail && event.detail.ctx;
    if (ctx && ctx.cachedCopy) return;
    note.hidden = true; document.body.removeAttribute("data-offline-copy");
  }
  document.addEventListener("htmx:after:request", back);
  if (live) { live.addEventListener("ping", back); live.addEventListener("changed", back); }
  document.addEventListener("htmx:before:swap", function (event) {   // the kept fragment: only if newer
    var ctx = event.detail.ctx, shown = document.querySelector("#sheet[data-version]");
    if (!ctx.cachedCopy || !shown) return;
    var kept = /id="sheet"[^>]*data-version="(\d+)"/.exec(ctx.text || "");
    if (!kept || parseInt(kept[1], 10) <= parseInt(shown.getAttribute("data-version"), 10)) event.preventDefault();
  });
  // The copy's forms (and the kept fragment's) carry submission ids that may have been used
  // since (a save answered after the copy was kept): an entry typed here would then be
  // "already saved" and lost. They get new ones (the server's are 16 random bytes, base64url,
  // then a suffix per form: "-confirm", "-undo" ...).
  function renewIds() {
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    var id = btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    var boxes = document.querySelectorAll("input[name=sid]");
    for (var i = 0; i < boxes.length; i++) boxes[i].value = id + boxes[i].value.slice(id.length);
  }
  renewIds();
  document.addEventListener("htmx:after:swap", function (event) { if (event.detail.ctx.cachedCopy) renewIds(); });
  if (play && window.htmx) {
    htmx.ajax("GET", play.getAttribute("hx-get").split("?")[0], { source: play, target: "#play", swap: "outerMorph",
              cachedCopy: true, headers: { "X-Companion-Cache": "only" } }).catch(function () {});
  }
})();
