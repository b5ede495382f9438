// Table Companion, a group's pages (templates/groups/show.html, game.html, player.html: the
// {% block scripts %} of base.html). The server writes every date as
// <time class="local-time" datetime="…Z">YYYY-MM-DD HH:MM UTC</time>, true anywhere and what a
// phone without scripts shows; here it becomes the phone's own date and time
// (YYYY-MM-DD HH:MM), with the full local date and time as its title.
(function () {
  "use strict";

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function localise(root) {
    if (!root || !root.querySelectorAll) return;
    var times = root.querySelectorAll("time.local-time[datetime]");
    for (var i = 0; i < times.length; i++) {
      var el = times[i];
      var when = new Date(el.getAttribute("datetime"));
      if (el.hasAttribute("data-local") || isNaN(when.getTime())) continue;
      el.textContent = when.getFullYear() + "-" + pad(when.getMonth() + 1) + "-" +
        pad(when.getDate()) + " " + pad(when.getHours()) + ":" + pad(when.getMinutes());
      try { el.title = when.toLocaleString(); } catch (e) { /* the date alone is enough */ }
      el.setAttribute("data-local", "1");
    }
  }
  localise(document);
  if (window.htmx && htmx.onLoad) htmx.onLoad(localise);
})();
