// Table Companion, event pages only (templates/events/*: the {% block scripts %} of base.html).
// - The round clock counts down between the page's polls: a running clock's
//   <time data-clock-end="epoch ms"> ticks every second (a paused one has no end: it stays
//   put). The poll brings the truth (a pause, more time); data-clock-now, the server's time
//   when the page was made, allows for a phone whose own clock is off.
// - [data-print] buttons print the page.
// - The director's room holds its refresh while a minutes box has the focus (the swap would
//   throw away what is being typed).
// - When a round clock this page saw running runs out (it ticks to zero, or a refresh says
//   "Time is up"), the phone vibrates where it can, and a page with a sound toggle (the
//   projector) plays a short tone once the toggle was tapped (browsers play sound only after
//   a tap). Once per round end: extending the clock makes a new end.
// - The director's announcements: each is dismissible on this phone (remembered in
//   localStorage); an event's table fetches them again when its stream says "news".
// - The director's log tells each change at the viewer's own time: the page says
//   <time class="local-time" datetime="…Z">HH:MM UTC</time>, true anywhere; where the
//   browser can, it becomes the local HH:MM, with the full local date and time as its title.
// - The projector's standings: as many rows as its screen holds. The rows' height and where
//   the table starts are measured here and asked of the server as ?rows=N (every next
//   screen's address keeps it); the server pages the standings by it and says "page 2 of 3".
//   A long name wraps (the tallest row counts); without this script the projector shows
//   every row.
(function () {
  "use strict";

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    var clocks = document.querySelectorAll("time[data-clock-end]");
    for (var i = 0; i < clocks.length; i++) {
      var el = clocks[i];
      if (el.companionSkew === undefined) {
        var server = parseInt(el.getAttribute("data-clock-now"), 10);
        el.companionSkew = isNaN(server) ? 0 : server - Date.now();
      }
      var end = parseInt(el.getAttribute("data-clock-end"), 10);
      if (isNaN(end)) continue;
      var left = Math.ceil((end - (Date.now() + el.companionSkew)) / 1000);
      var box = el.closest(".clock");
      if (left <= 0) {
        el.textContent = el.getAttribute("data-up") || "00:00";
        if (box) box.classList.add("over");
        timeUp(box, end);
      } else {
        if (box) running[box.getAttribute("data-round")] = end;
        var text = pad(Math.floor(left / 60)) + ":" + pad(left % 60);
        el.textContent = (el.getAttribute("data-format") || "{}").replace("{}", text);
        el.setAttribute("datetime", "PT" + left + "S");
      }
    }
  }
  // The round clock's end: round -> the end (epoch ms) last seen ticking; the ends rung.
  var running = {}, rung = {}, audio = null;
  function soundOn() {
    try { return localStorage.getItem("tc-sound") === "on"; } catch (e) { return false; }
  }
  function tone() {
    if (!audio || !soundOn()) return;
    try {
      if (audio.state === "suspended") audio.resume();
      [0, 0.45, 0.9].forEach(function (at) {   // three short beeps
        var osc = audio.createOscillator(), gain = audio.createGain(), t = audio.currentTime + at;
        osc.type = "sine"; osc.frequency.value = 880;
        gain.gain.setValueAtTime(0.0001, t);
        gain.gain.exponentialRampToValueAtTime(0.4, t + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.35);
        osc.connect(gain); gain.connect(audio.destination);
        osc.start(t); osc.stop(t + 0.4);
      });
    } catch (e) { /* no Web Audio: the screen says it */ }
  }
  function timeUp(box, end) {
    var round = box && box.getAttribute("data-round");
    if (!round || !running[round]) return;     // never seen running here: nothing to ring
    var key = round + ":" + (end || running[round]);
    if (rung[key]) return;
    rung[key] = true;
    delete running[round];
    document.documentElement.setAttribute("data-time-up", key);
    tone();
    if (navigator.vibrate) { try { navigator.vibrate([400, 200, 400]); } catch (e) { /* no */ } }
  }
  function overClocks(root) {     // a refresh that says "Time is up" where a clock ran
    var boxes = (root || document).querySelectorAll ? (root || document).querySelectorAll(".clock.over[data-round]") : [];
    for (var i = 0; i < boxes.length; i++) timeUp(boxes[i], null);
  }
  function showSound(button) {
    var on = soundOn() && audio;
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.textContent = button.getAttribute(on ? "data-on" : "data-off");
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#sound-toggle");
    if (!button) return;
    var on = !(soundOn() && audio);
    if (on && !audio) {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      if (Ctx) { try { audio = new Ctx(); } catch (e) { audio = null; } }
    }
    try { localStorage.setItem("tc-sound", on ? "on" : "off"); } catch (e) { /* private mode */ }
    showSound(button);
    if (on) tone();                // a first beep: the room hears that it works
  });
  var toggle = document.getElementById("sound-toggle");
  if (toggle) showSound(toggle);

  // Announcements dismissed on this phone (their ids).
  function seenNews() {
    try { return JSON.parse(localStorage.getItem("tc-news-seen") || "[]"); } catch (e) { return []; }
  }
  function markNews(root) {
    if (!root || !root.querySelectorAll) return;
    var seen = seenNews(), items = root.querySelectorAll("[data-news]");
    for (var i = 0; i < items.length; i++) {
      var el = items[i];
      if (seen.indexOf(el.getAttribute("data-news")) < 0) continue;
      if (el.closest(".news-keep")) el.classList.add("seen"); else el.hidden = true;
    }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-dismiss-news]");
    if (!button) return;
    var seen = seenNews();
    seen.push(button.getAttribute("data-dismiss-news"));
    try { localStorage.setItem("tc-news-seen", JSON.stringify(seen.slice(-50))); } catch (e) { /* private mode */ }
    markNews(document);
  });
  var live = document.getElementById("live"), holder = document.getElementById("event-news");
  function fetchNews(buzz) {
    fetch(holder.getAttribute("data-news-url"), { credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null) return;
        holder.innerHTML = html;
        markNews(holder); localise(holder);
        if (buzz && navigator.vibrate) { try { navigator.vibrate(200); } catch (e) { /* no */ } }
      }, function () { /* offline: the next news or return tries again */ });
  }
  if (live && holder) {
    live.addEventListener("ping", function (event) {
      var data = (event.detail && event.detail.data) || "";
      if (data.indexOf("news") === 0) fetchNews(true);
    });
    // A hidden page closes its stream (app.js): back in view, catch up on what was said.
    document.addEventListener("visibilitychange", function () { if (!document.hidden) fetchNews(false); });
  }

  tick();
  setInterval(tick, 1000);

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-print]");
    if (button) window.print();
  });

  document.addEventListener("htmx:before:swap", function (event) {
    var room = document.getElementById("room");
    if (!room || event.target !== room) return;
    var el = document.activeElement;
    if (el && el.tagName === "INPUT" && room.contains(el)) event.preventDefault();
  });

  var fitCap = Infinity;     // the rows last asked for; a resized window starts again
  var fitHead = 0;           // the clock and news shown above the rows when fitCap was set
  function headItems(section) {
    var n = section.querySelectorAll(".clock").length;
    var news = section.querySelectorAll(".news-item");
    for (var i = 0; i < news.length; i++) if (!news[i].hidden) n++;
    return n;
  }
  function fitProjector() {
    var section = document.getElementById("projector");
    if (!section || section.getAttribute("data-show") !== "standings") return;
    var body = section.querySelector("#standings-table tbody");
    if (!body || !body.rows.length) return;
    // The clock (or an announcement) went away: the rows have more room, measure afresh.
    var head = headItems(section);
    if (head < fitHead) fitCap = Infinity;
    fitHead = head;
    var tallest = 0;
    for (var i = 0; i < body.rows.length; i++) {
      tallest = Math.max(tallest, body.rows[i].getBoundingClientRect().height);
    }
    var top = body.getBoundingClientRect().top + window.pageYOffset;
    var room = window.innerHeight - top - Math.max(6, window.innerHeight * 0.015);
    // Never more than asked before: a page of short names must not ask for more rows than
    // a page holding a long (wrapped, taller) one, or the two would ask for each other.
    var fit = Math.max(3, Math.min(200, fitCap, Math.floor(room / tallest)));
    var total = parseInt(section.getAttribute("data-total"), 10) || 0;
    var asked = parseInt(section.getAttribute("data-rows"), 10) || 0;   // 0: every row
    if (fit === asked || (fit >= total && (!asked || asked >= total))) {
      section.setAttribute("data-fitted", fit);    // this screen holds its rows
      return;
    }
    if (section.getAttribute("data-asking") === String(fit)) return;   // asked already
    var first = parseInt(section.getAttribute("data-first"), 10) || 1;
    var url = location.pathname + "?page=" + (Math.floor((first - 1) / fit) + 1) +
      "&rows=" + fit;
    section.setAttribute("data-asking", fit);
    fitCap = fit;
    if (window.htmx && htmx.ajax) htmx.ajax("GET", url, { target: section, swap: "outerHTML" });
    else location.replace(url);
  }
  var resizing;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { fitCap = Infinity; fitProjector(); }, 300);
  });

  function localise(root) {
    if (!root || !root.querySelectorAll) return;
    var times = root.querySelectorAll("time.local-time[datetime]");
    for (var i = 0; i < times.length; i++) {
      var el = times[i];
      var when = new Date(el.getAttribute("datetime"));
      if (el.hasAttribute("data-local") || isNaN(when.getTime())) continue;
      try {
        el.textContent = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
        el.title = when.toLocaleString();
        el.setAttribute("data-local", "1");
      } catch (e) { /* an old browser: the UTC text stays */ }
    }
  }
  localise(document);
  fitProjector();
  markNews(document);
  overClocks(document);
  if (window.htmx && htmx.onLoad) {
    htmx.onLoad(function (el) { localise(el); markNews(el); overClocks(el); });
    htmx.onLoad(function () { fitProjector(); });
  }
})();
