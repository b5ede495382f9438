// Table Companion: the widgets htmx doesn't have (no inline scripts: CSP forbids them).
// Live refresh is declared in templates/tables/_play.html; here are the mark that keeps a
// typed-in box, answers brought into view, the live badge. Event pages add static/js/event.js;
// the dice and card games' and the score pad's pages add static/js/pickers.js (web/assets.py).
(function () {
  "use strict";

  // Delegated listeners: `handler(element)` for the closest match of `selector`.
  function on(type, selector, handler) {
    document.addEventListener(type, function (e) { var el = e.target.closest && e.target.closest(selector); if (el) handler(el); });
  }

  // A widget that changes a box says so as typing does: the hand redraws, the box is kept.
  function set(input, value) {
    if (input.value !== value) { input.value = value; input.dispatchEvent(new Event("input", { bubbles: true })); }
  }

  // For the game pages' own script (static/js/pickers.js: the dice pad, the card picker).
  window.companion = { on: on, set: set };

  // Typing is kept: a typed-in [data-keep-typing] box is hx-morph-skip (tables/_play.html).
  on("input", "[data-keep-typing]", function (box) { box.setAttribute("hx-morph-skip", ""); });

  // Only the app's own answers count (X-Companion: 1, web/answers.py). Anything else (a
  // proxy's 502 page, Caddy's empty 502, a 503/504 while the server restarts) is treated
  // exactly like no answer at all: the fetch fails, so htmx swaps nothing anywhere (sheet,
  // entry form, #flash, live refreshes), fires htmx:error without a response, and the outbox
  // keeps a write that carries a submission id (static/js/outbox.js).
  document.addEventListener("htmx:before:request", function (e) {
    var ctx = e.detail.ctx, fetch = ctx.fetch;
    ctx.fetch = function (url, init) {
      return fetch(url, init).then(function (response) {
        if (response.headers.get("X-Companion") === "1") return response;
        throw new TypeError("not the app's answer");
      });
    };
  });

  // An error notice (HX-Retarget: #flash, pinned above the thumb by app.css) belongs to the
  // last write; a tap on it puts it away. Live refreshes (GETs) leave it.
  var flash = document.getElementById("flash");
  document.addEventListener("htmx:before:request", function (e) { if (e.detail.ctx.request.method !== "GET") flash.textContent = ""; });
  on("click", "#flash", function () { flash.textContent = ""; });

  // Feedback where the thumb is: the answer to a tap ([data-answer] notice) scrolls into view
  // once, after the first box marked invalid, which takes the focus. (after:process fires on
  // the new content; after:swap on the tapped form, which an outerHTML swap has detached.)
  var asked = false;
  document.addEventListener("htmx:before:request", function (e) { if (e.detail.ctx.request.method !== "GET") asked = !!(e.target.closest && e.target.closest("details.ask")); });
  document.addEventListener("htmx:after:process", function () {
    var note = document.querySelector("[data-answer]"), bad = document.querySelector("#entry [aria-invalid=true]");
    if (!note) return; note.removeAttribute("data-answer");
    if (bad) { bad.focus({ preventScroll: true }); bad.scrollIntoView({ block: "nearest" }); }
    // The answer to a tap that asked first (templates/_ask.html: its form is below the
    // answer, and the page was scrolled down to reach it) goes to the screen's foot, with
    // the form it answers above it, where the next tap is.
    note.scrollIntoView({ block: asked || note.getBoundingClientRect().top < 0 ? "end" : "nearest" });
    asked = false;
  });

  // Details a player opened stay open through live refreshes ([data-keep-open]).
  if (window.htmx) htmx.registerExtension("keep-open", { htmx_before_morph_attr: function (el, d) { return !(d.attrName === "open" && el.hasAttribute("data-keep-open")); } });

  // The ± buttons beside score boxes (phone keypads often have no minus key).
  on("click", "[data-sign-for]", function (button) {
    var input = document.getElementById(button.getAttribute("data-sign-for"));
    if (!input) return;
    var value = input.value.trim();
    set(input, value.charAt(0) === "-" ? value.slice(1) : "-" + value.replace(/^\+/, ""));
    input.focus();
  });

  // Rook's bid: the chips and the typed box are one value, the last one touched. A chip
  // tapped empties the typed box; a bid typed (or stepped) unticks the chip.
  on("change", "input[name=bid]", function () {
    var typed = document.querySelector("input[name=bid_typed]");
    if (typed) set(typed, "");
  });
  on("input", "input[name=bid_typed]", function (box) {
    var chip = box.value.trim() && document.querySelector("input[name=bid]:checked");
    if (chip) chip.checked = false;
  });

  // Bid stepper (Rook): − / + move the typed bid by the bid step, from the minimum.
  on("click", "[data-step-by]", function (button) {
    var box = button.closest("[data-step]"), input = box && box.querySelector("input");
    if (!input) return;
    var low = parseInt(box.getAttribute("data-min"), 10), value = parseInt(input.value, 10);
    var step = parseInt(box.getAttribute("data-step"), 10) * parseInt(button.getAttribute("data-step-by"), 10);
    set(input, String(Math.max(low, isNaN(value) ? low : value + step)));
  });

  // Team points (Rook): typing one team's points fills the other's as the hand total
  // minus them, until the player types there too (a recount).
  on("input", "[data-hand-total] input[data-points]", function (input) {
    var box = input.closest("[data-hand-total]"), others = box.querySelectorAll("input[data-points]");
    var total = parseInt(box.getAttribute("data-hand-total"), 10);
    var value = parseInt(input.value.replace("\u2212", "-"), 10);
    input.setAttribute("data-typed", "1");
    for (var i = 0; i < others.length; i++) {
      if (others[i] === input || others[i].hasAttribute("data-typed")) continue;
      others[i].value = isNaN(value) ? "" : String(total - value);
    }
  });

  // The live badge (table, history): "live" while the stream's messages (a change, its ping
  // every 5 s) come through; after 5 s without one at first, or 20 s later, "updates every
  // 2 s": #live[data-state=poll] lets tables/_play.html's `every 2s` poll (not while hidden).
  var live = document.getElementById("live"), dot = document.getElementById("live-state");
  if (live && dot) {
    var timer, state = "";
    var say = function (kind, word) {   // the word in the page's language (data-live, ...)
      dot.className = "live-dot " + kind; dot.textContent = dot.getAttribute("data-" + word) || word;
    };
    var become = function (next, word) { state = next; live.setAttribute("data-state", document.hidden ? "away" : next); say(next, word); };
    var silence = function (ms) { clearTimeout(timer); timer = setTimeout(become, ms, "poll", "polling"); };
    var heard = function () { become("on", "live"); silence(20000); };
    live.addEventListener("changed", heard); live.addEventListener("ping", heard);
    live.addEventListener("lost", function () { become("off", "reconnecting"); });
    // A request that got no answer (or a proxy's, see above): "reconnecting". A live refresh
    // that got none is asked again 2 s later (a `lost`, on which the sheet refreshes), unless
    // the badge polls anyway: a stream that stayed open won't say again that this page is behind.
    var again, refresh = /^(play|history)$/;
    document.addEventListener("htmx:error", function (event) {
      if (event.detail.ctx.response) return;
      say("off", "reconnecting");
      clearTimeout(again);
      if (refresh.test(event.target.id) && state !== "poll") again = setTimeout(function () { live.dispatchEvent(new CustomEvent("lost")); }, 2000);
    });
    document.addEventListener("htmx:after:request", function (event) {   // a poll came through
      if (state === "poll" && refresh.test(event.target.id)) say("poll", "polling");
    });
    document.addEventListener("visibilitychange", function () { live.setAttribute("data-state", document.hidden ? "away" : state); });
    silence(5000);
  }

  // The table's live stream (tables/table.html, history.html): #live[data-stream] is the URL of
  // its server-sent messages, opened with the browser's own EventSource (these lines
  // instead of the htmx SSE extension: docs/DECISIONS.md says why). Each message
  // becomes a DOM event of its name on #live: `changed` (data: the table's
  // version), on which tables/_play.html refreshes, and `ping`, the keep-alive. A `changed`
  // naming the version already on screen (every stream opens with one, to catch up after a
  // gap) is passed on as a `ping`: nothing to fetch. A stream that can't be opened fires `lost`
  // (the page refreshes once; the badge says "reconnecting") and is tried again after 0.5 s,
  // 1 s, 2 s ... at most a minute, +-30%. One that was open for a while and ends (the server
  // ends each after LIVE_MAX_SECONDS; a dropped network) is opened again at once, with no
  // `lost` unless that fails too. A hidden page closes its stream and opens it when shown.
  var url = live && live.getAttribute("data-stream");
  if (url && window.EventSource) {
    var source = null, failures = 0, retry;
    var relay = function (e) {
      var sheet = document.querySelector("#sheet[data-version]");
      var name = e.type === "changed" && sheet && sheet.getAttribute("data-version") === e.data ? "ping" : e.type;
      live.dispatchEvent(new CustomEvent(name, { bubbles: true, detail: { data: e.data } }));
    };
    var disconnect = function () { clearTimeout(retry); if (source) { source.close(); source = null; } };
    var connect = function () {
      disconnect();
      if (document.hidden) return;
      var opened = 0, mine = source = new EventSource(url);
      mine.onopen = function () { opened = Date.now(); };
      mine.addEventListener("changed", relay); mine.addEventListener("ping", relay);
      mine.onerror = function () {
        if (source !== mine) return;
        disconnect();
        if (opened && Date.now() - opened > 5000) { failures = 0; connect(); return; }
        live.dispatchEvent(new CustomEvent("lost", { bubbles: true }));
        retry = setTimeout(connect, Math.min(60000, 500 * Math.pow(2, failures++)) * (0.7 + 0.6 * Math.random()));
      };
    };
    document.addEventListener("visibilitychange", function () { if (document.hidden) disconnect(); else if (!source) connect(); });
    connect();
  }

  // The service worker (static/js/sw.js, at body[data-sw]: the app's root or its prefix)
  // keeps the static files, and each table page and its play fragment as they load, so the
  // table page opens without a connection (browsers have navigator.serviceWorker on https://
  // and localhost only).
  var worker = document.body.getAttribute("data-sw");
  if (worker && navigator.serviceWorker) navigator.serviceWorker.register(worker).catch(function () {});

  // Keep the screen awake during play where the browser allows (Wake Lock API).
  function keepAwake() {   // a refusal (not allowed here) is fine
    if (document.body.hasAttribute("data-table-page") && "wakeLock" in navigator && !document.hidden) navigator.wakeLock.request("screen").catch(function () {});
  }
  keepAwake(); document.addEventListener("visibilitychange", keepAwake);
})();
