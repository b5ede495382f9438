// Table Companion: the little script every page loads (no inline scripts: CSP forbids them).
// - the ± buttons beside score boxes (phone keypads often have no minus key);
// - live updates: the SSE stream (htmx hx-sse) says "changed"; we refresh the sheet, and
//   the entry form too when nothing is typed in it. Without a healthy stream we poll every
//   2 s while the page is visible (204 = nothing new);
// - keep the screen awake during play where the browser allows (Wake Lock API).
(function () {
  "use strict";

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-sign-for]");
    if (!button) return;
    var input = document.getElementById(button.getAttribute("data-sign-for"));
    if (!input) return;
    var value = input.value.trim();
    input.value = value.charAt(0) === "-" ? value.slice(1) : "-" + value.replace(/^\+/, "");
    input.focus();
  });

  // An error notice (htmx answers with HX-Retarget: #flash) belongs to the last request:
  // the next one clears it.
  document.addEventListener("htmx:before:request", function () {
    var flash = document.getElementById("flash");
    if (flash) flash.textContent = "";
  });

  // Bid stepper (Rook): − / + move the typed bid by the bid step, from the minimum.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-step-by]");
    if (!button) return;
    var box = button.closest("[data-step]");
    var input = box && box.querySelector("input");
    if (!input) return;
    var step = parseInt(box.getAttribute("data-step"), 10);
    var low = parseInt(box.getAttribute("data-min"), 10);
    var value = parseInt(input.value, 10);
    value = isNaN(value) ? low : value + step * parseInt(button.getAttribute("data-step-by"), 10);
    input.value = String(Math.max(low, value));
  });

  // Team points (Rook): typing one team's points fills the other's as the hand total
  // minus them, until the player types there too (a recount).
  document.addEventListener("input", function (event) {
    var input = event.target;
    var box = input.closest && input.closest("[data-hand-total]");
    if (!box || !input.hasAttribute("data-points")) return;
    input.setAttribute("data-typed", "1");
    var others = box.querySelectorAll("input[data-points]");
    var total = parseInt(box.getAttribute("data-hand-total"), 10);
    var value = parseInt(input.value.replace("\u2212", "-"), 10);
    for (var i = 0; i < others.length; i++) {
      var other = others[i];
      if (other === input || other.hasAttribute("data-typed")) continue;
      other.value = isNaN(value) ? "" : String(total - value);
    }
  });

  // Dice pad (Zock'n'Roll): face buttons add a die to the box, ⌫ takes the last one off;
  // the box can still be typed in ("2 5 6").
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-die], [data-die-back]");
    var pad = button && button.closest("[data-dice-pad]");
    var input = pad && pad.querySelector("[data-dice-input]");
    if (!input) return;
    var dice = input.value.replace(/[^1-6]/g, "").split("").filter(Boolean);
    if (button.hasAttribute("data-die-back")) {
      dice.pop();
    } else if (dice.length < parseInt(pad.getAttribute("data-max"), 10)) {
      dice.push(button.getAttribute("data-die"));
    }
    input.value = dice.join(" ");
  });

  // Card picker (every card game): tap a rank, then a suit; the card joins the box. A
  // joker button adds at once. `data-copies` caps copies of one card (2 with two decks).
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-rank], [data-suit], [data-card], [data-card-back]");
    var picker = button && button.closest("[data-card-picker]");
    var input = picker && picker.querySelector("[data-card-input]");
    if (!input) return;
    var cards = input.value.trim().toUpperCase().split(/[\s,]+/).filter(Boolean);
    var pressed = picker.querySelector("[data-rank][aria-pressed=true]");
    if (button.hasAttribute("data-rank")) {
      if (pressed) pressed.setAttribute("aria-pressed", "false");
      if (pressed !== button) button.setAttribute("aria-pressed", "true");
      return;
    }
    var card = null;
    if (button.hasAttribute("data-card-back")) {
      cards.pop();
    } else if (button.hasAttribute("data-card")) {
      card = button.getAttribute("data-card");
    } else if (pressed) {
      card = pressed.getAttribute("data-rank") + button.getAttribute("data-suit");
      pressed.setAttribute("aria-pressed", "false");
    }
    if (card) {
      var copies = parseInt(picker.getAttribute("data-copies") || "1", 10);
      var max = parseInt(picker.getAttribute("data-max") || "0", 10);
      var have = cards.filter(function (c) { return c === card; }).length;
      if (have < copies && (!max || cards.length < max)) cards.push(card);
    }
    input.value = cards.join(" ");
  });

  var body = document.body;
  if (!body.hasAttribute("data-table-page")) return;

  var live = document.getElementById("live");
  var dot = document.getElementById("live-state");
  var versionUrl = body.getAttribute("data-version-url");
  var lastMessage = 0;          // when the stream last said anything
  var loadedAt = Date.now();
  var entryStale = false;
  var latest = -1;              // the newest version the stream (or a poll) announced
  var polling = false;

  function currentVersion() {
    var sheet = document.getElementById("sheet");
    return sheet ? parseInt(sheet.getAttribute("data-version"), 10) : -1;
  }

  function pristine() {
    var form = document.getElementById("entry-form");
    if (!form) return true;
    // A form sent back after a refusal holds what the player typed as its defaults.
    var refused = form.parentNode.querySelector(".notice.error, .notice.conflict");
    var inputs = form.querySelectorAll("input:not([type=hidden]), select, textarea");
    for (var i = 0; i < inputs.length; i++) {
      var el = inputs[i];
      if (el.type === "checkbox" || el.type === "radio") {
        if (el.checked !== el.defaultChecked) return false;
      } else if (el.tagName === "SELECT") {
        for (var j = 0; j < el.options.length; j++) {
          if (el.options[j].selected !== el.options[j].defaultSelected) return false;
        }
      } else if (el.value !== el.defaultValue || (refused && el.value !== "")) {
        return false;
      }
    }
    return true;
  }

  function formVersion() {       // the version the entry form would be saved against
    var input = document.querySelector("#entry-form input[name=version]");
    return input ? parseInt(input.value, 10) : null;
  }

  function refreshEntry() {
    var entry = document.getElementById("entry");
    if (!entry) return;
    var v = formVersion();
    if (v !== null && v >= latest) {  // already fresh, e.g. the answer to our own save
      entryStale = false;
      return;
    }
    // Never throw away what a player is typing, nor close their keyboard. (Focus on a
    // button, e.g. "Save" right after saving, is not typing: refresh then, or the next
    // save would meet a needless conflict.)
    if (!pristine() || typingIn(entry)) {
      entryStale = true;
      return;
    }
    entryStale = false;
    htmx.trigger(entry, "refresh");
  }

  function typingIn(entry) {
    var el = document.activeElement;
    if (!el || !entry.contains(el)) return false;
    if (el.tagName === "SELECT" || el.tagName === "TEXTAREA") return true;
    return el.tagName === "INPUT" && !/^(button|submit|reset|hidden|checkbox|radio)$/.test(el.type);
  }

  function onVersion(version) {
    if (version > latest) latest = version;
    if (!(version > currentVersion())) return;
    // One fetch for the sheet and the form together when the form may be replaced (the
    // usual case: half the requests a change costs the server); else the sheet alone.
    var play = document.getElementById("play");
    var entry = document.getElementById("entry");
    var v = formVersion();
    if (play && entry && v !== null && v < latest && pristine() && !typingIn(entry)) {
      entryStale = false;
      // Its own event name: "refresh" on #sheet or #entry bubbles up to #play, and must
      // not set off a second, whole-#play fetch.
      htmx.trigger(play, "refresh-play");
      return;
    }
    var sheet = document.getElementById("sheet");
    if (sheet) htmx.trigger(sheet, "refresh");
    refreshEntry();
  }

  // The refresh was asked for while the form was untouched, but its answer can arrive
  // after the player started typing: then keep the form, and refresh it later.
  function versionIn(text, pattern) {
    var match = pattern.exec(text);
    return match ? parseInt(match[1], 10) : null;
  }

  // A refresh asked for before our own save's answer arrived can land after it: it holds
  // nothing newer, and swapping it in would wipe the answer's notice ("Saved as entry #5",
  // "A new game has started"). Keep what is on screen then.
  function nothingNewer(event, play, entry) {
    var text = event.detail && event.detail.ctx && event.detail.ctx.text;
    if (typeof text !== "string") return false;
    var form = versionIn(text, /name="version" value="(\d+)"/);
    var mine = formVersion();
    // (No form version on screen, e.g. the rematch button: anything may be newer.)
    var formOld = form === null || (mine !== null && form <= mine);
    if (event.target === entry) return form !== null && formOld;
    var sheet = versionIn(text, /id="sheet"[^>]*data-version="(\d+)"/);
    return event.target === play && sheet !== null && sheet <= currentVersion() && formOld;
  }

  document.addEventListener("htmx:before:swap", function (event) {
    var entry = document.getElementById("entry");
    var play = document.getElementById("play");
    var refreshing = event.target === entry || (play && event.target === play);
    if (!entry || !refreshing) return;   // (a save's answer comes from the form: let it in)
    if (nothingNewer(event, play, entry)) {
      event.preventDefault();
      return;
    }
    if (!pristine() || typingIn(entry)) {
      event.preventDefault();
      entryStale = true;
      var sheet = document.getElementById("sheet");
      if (event.target === play && sheet) htmx.trigger(sheet, "refresh");
    }
  });

  // A refresh asked for from a sheet that a save's answer has since replaced is lost
  // (htmx swaps it into the detached element). After every swap, catch up.
  htmx.onLoad(function () {
    var sheet = document.getElementById("sheet");
    if (sheet && latest > currentVersion()) htmx.trigger(sheet, "refresh");
    var v = formVersion();
    if (v !== null && v < latest) refreshEntry();
  });

  document.addEventListener("focusout", function (event) {
    var entry = document.getElementById("entry");
    if (!entryStale || !entry || !entry.contains(event.target)) return;
    setTimeout(function () { if (entryStale) refreshEntry(); }, 50);
  });

  function setDot(state, text) {
    if (!dot) return;
    dot.className = "live-dot " + state;
    // The page carries the word in its language (data-live, data-polling, ...).
    dot.textContent = dot.getAttribute("data-" + text) || text;
  }

  if (live) {
    live.addEventListener("changed", function (event) {
      lastMessage = Date.now();
      setDot("on", "live");
      onVersion(parseInt(event.detail && event.detail.data, 10));
    });
    live.addEventListener("ping", function () { lastMessage = Date.now(); });
  }
  document.addEventListener("htmx:sse:error", function () { setDot("off", "reconnecting"); });

  function pollOnce() {
    if (!versionUrl) return;
    fetch(versionUrl + "?since=" + currentVersion(), { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 200) return response.text().then(function (t) { onVersion(parseInt(t, 10)); });
      })
      .catch(function () { setDot("off", "offline"); });
  }

  // The stream sends an event at once and a ping every 15 s; silence means it isn't
  // getting through (a buffering proxy, a dropped connection): fall back to polling.
  setInterval(function () {
    if (document.visibilityState !== "visible") return;
    var healthy = lastMessage > 0 ? Date.now() - lastMessage < 20000 : Date.now() - loadedAt < 5000;
    if (healthy) {
      polling = false;
      return;
    }
    if (!polling) setDot("poll", "polling");
    polling = true;
    pollOnce();
  }, 2000);

  // Coming back from a locked screen or another app: catch up at once.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      pollOnce();
      keepAwake();
    }
  });

  function keepAwake() {
    if (!("wakeLock" in navigator) || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").catch(function () { /* not allowed here: fine */ });
  }
  keepAwake();
})();

// Picked cards as a hand: an element with data-card-hand-for="<box id>" shows the cards in
// that picker box as colour-coded cards, kept up to date while cards are tapped or typed.
// (Its own listener, after the picker's, so the box already holds the new card.)
(function () {
  "use strict";
  var SYMBOLS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };

  function draw(input) {
    if (!input || !input.id) return;
    var views = document.querySelectorAll("[data-card-hand-for]");
    var cards = input.value.trim().toUpperCase().split(/[\s,]+/).filter(Boolean);
    for (var i = 0; i < views.length; i++) {
      var view = views[i];
      if (view.getAttribute("data-card-hand-for") !== input.id) continue;
      while (view.firstChild) view.removeChild(view.firstChild);
      if (!cards.length) {
        var empty = document.createElement("span");
        empty.className = "card-hand-empty";
        empty.textContent = view.getAttribute("data-empty") || "";
        view.appendChild(empty);
      }
      for (var j = 0; j < cards.length; j++) {
        var card = cards[j], chip = document.createElement("span"), suit = card.slice(-1);
        chip.className = "playing-card" + (card === "JK" ? " card-joker" : " suit-" + suit);
        chip.textContent = card === "JK" ? (view.getAttribute("data-joker") || "Joker")
          : card.slice(0, -1) + (SYMBOLS[suit] || suit);
        view.appendChild(chip);
      }
    }
  }

  document.addEventListener("click", function (event) {
    var picker = event.target.closest && event.target.closest("[data-card-picker]");
    if (picker) draw(picker.querySelector("[data-card-input]"));
  });
  document.addEventListener("input", function (event) {
    if (event.target.hasAttribute && event.target.hasAttribute("data-card-input")) draw(event.target);
  });
})();

// Events (issue 13): the round clock counts down between the page's polls: a running clock's
// <time data-clock-end="epoch ms"> ticks every second (a paused one has no end: it stays put).
// The poll brings the truth (a pause, more time); data-clock-now, the server's time when the
// page was made, allows for a phone whose own clock is off. Also: [data-print] buttons print
// the page, and the director's room holds its refresh while a minutes box has the focus (the
// swap would throw away what is being typed).
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
})();

// Events: the director's log tells each change at the viewer's own time. The page says
// <time class="local-time" datetime="…Z">HH:MM UTC</time>, true anywhere; where the browser
// can, it becomes the local HH:MM, with the full local date and time as its title.
(function () {
  "use strict";

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
  if (window.htmx && htmx.onLoad) htmx.onLoad(localise);
})();
