// Table Companion, event pages only (templates/events/*: the {% block scripts %} of base.html).
// - The round clock counts down between the page's polls: a running clock's
//   <time data-clock-end="epoch ms"> ticks every second (a paused one has no end: it stays
//   put). The poll brings the truth (a pause, more time); data-clock-now, the server's time
//   when the page was made, allows for a phone whose own clock is off.
// - [data-print] buttons print the page.
// - The director's room holds its refresh while a minutes box has the focus (the swap would
//   throw away what is being typed).
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
      } else {
        var text = pad(Math.floor(left / 60)) + ":" + pad(left % 60);
        el.textContent = (el.getAttribute("data-format") || "{}").replace("{}", text);
        el.setAttribute("datetime", "PT" + left + "S");
      }
    }
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
  function fitProjector() {
    var section = document.getElementById("projector");
    if (!section || section.getAttribute("data-show") !== "standings") return;
    var body = section.querySelector("#standings-table tbody");
    if (!body || !body.rows.length) return;
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
  if (window.htmx && htmx.onLoad) {
    htmx.onLoad(localise);
    htmx.onLoad(function () { fitProjector(); });
  }
})();
