// Table Companion: the widgets htmx doesn't have (no inline scripts: CSP forbids them).
// Live refresh is declared in templates/tables/_play.html; here are the mark that keeps a
// typed-in box, answers brought into view, the live badge. Event pages add static/js/event.js.
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

  // Typing is kept: a typed-in [data-keep-typing] box is hx-morph-skip (tables/_play.html).
  on("input", "[data-keep-typing]", function (box) { box.setAttribute("hx-morph-skip", ""); });

  // An error notice (HX-Retarget: #flash, pinned above the thumb by app.css) belongs to the
  // last write; a tap on it puts it away. Live refreshes (GETs) leave it.
  var flash = document.getElementById("flash");
  document.addEventListener("htmx:before:request", function (e) { if (e.detail.ctx.request.method !== "GET") flash.textContent = ""; });
  on("click", "#flash", function () { flash.textContent = ""; });

  // Feedback where the thumb is: the answer to a tap ([data-answer] notice) scrolls into view
  // once, after the first box marked invalid, which takes the focus. (after:process fires on
  // the new content; after:swap on the tapped form, which an outerHTML swap has detached.)
  document.addEventListener("htmx:after:process", function () {
    var note = document.querySelector("[data-answer]"), bad = document.querySelector("#entry [aria-invalid=true]");
    if (!note) return; note.removeAttribute("data-answer");
    if (bad) { bad.focus({ preventScroll: true }); bad.scrollIntoView({ block: "nearest" }); }
    note.scrollIntoView({ block: "nearest" });
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

  // Dice pad (Zock'n'Roll): a face adds a die to the box ("2 5 6"), ⌫ takes the last off.
  on("click", "[data-die], [data-die-back]", function (button) {
    var pad = button.closest("[data-dice-pad]"), input = pad && pad.querySelector("[data-dice-input]");
    if (!input) return;
    var dice = input.value.replace(/[^1-6]/g, "").split("");
    if (button.hasAttribute("data-die-back")) dice.pop();
    else if (dice.length < parseInt(pad.getAttribute("data-max"), 10)) dice.push(button.getAttribute("data-die"));
    set(input, dice.join(" "));
  });

  // Card picker (templates/_cards.html): rank, then suit; a joker adds at once; data-copies/-max cap it.
  function cardsIn(input) { return input.value.trim().toUpperCase().split(/[\s,]+/).filter(Boolean); }
  on("click", "[data-rank], [data-suit], [data-card], [data-card-back]", function (button) {
    var picker = button.closest("[data-card-picker]"), input = picker && picker.querySelector("[data-card-input]");
    if (!input) return;
    var cards = cardsIn(input), pressed = picker.querySelector("[data-rank][aria-pressed=true]"), card = null;
    if (button.hasAttribute("data-rank")) {
      if (pressed) pressed.setAttribute("aria-pressed", "false");
      if (pressed !== button) button.setAttribute("aria-pressed", "true");
      return;
    }
    if (button.hasAttribute("data-card-back")) cards.pop();
    else if (button.hasAttribute("data-card")) card = button.getAttribute("data-card");
    else if (pressed) {
      card = pressed.getAttribute("data-rank") + button.getAttribute("data-suit");
      pressed.setAttribute("aria-pressed", "false");
    }
    var copies = parseInt(picker.getAttribute("data-copies") || "1", 10), max = parseInt(picker.getAttribute("data-max") || "0", 10);
    if (card && max === 1) cards = [];   // a box of one card: a new tap replaces it
    if (card && cards.filter(function (c) { return c === card; }).length < copies && (!max || cards.length < max)) cards.push(card);
    set(input, cards.join(" "));
  });

  // Picked cards as a hand: [data-card-hand-for="<box id>"] shows the box's cards as
  // colour-coded cards, a suit's symbol read from the picker's own suit button.
  on("input", "[data-card-input]", function (input) {
    var views = document.querySelectorAll("[data-card-hand-for]"), picker = input.closest("[data-card-picker]");
    for (var i = 0; i < views.length; i++) {
      var view = views[i], cards = cardsIn(input);
      if (view.getAttribute("data-card-hand-for") !== input.id) continue;
      view.textContent = "";
      if (!cards.length) cards = [null];
      for (var j = 0; j < cards.length; j++) {
        var card = cards[j], suit = card && card.slice(-1), chip = document.createElement("span");
        var button = suit && picker && picker.querySelector('[data-suit="' + suit + '"]');
        chip.className = !card ? "card-hand-empty" : card === "JK" ? "playing-card card-joker" : "playing-card suit-" + suit;
        chip.textContent = !card ? view.getAttribute("data-empty") || ""
          : card === "JK" ? view.getAttribute("data-joker") || "Joker"
          : card.slice(0, -1) + (button ? button.textContent : suit);
        view.appendChild(chip);
      }
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
    live.addEventListener("htmx:sse:error", function () { become("off", "reconnecting"); });
    document.addEventListener("htmx:finally:request", function (event) {   // how a poll went
      var ok = event.detail.ctx.response; if (state === "poll" && /^(play|history)$/.test(event.target.id)) say(ok ? "poll" : "off", ok ? "polling" : "offline");
    });
    document.addEventListener("visibilitychange", function () { live.setAttribute("data-state", document.hidden ? "away" : state); });
    silence(5000);
  }

  // Keep the screen awake during play where the browser allows (Wake Lock API).
  function keepAwake() {   // a refusal (not allowed here) is fine
    if (document.body.hasAttribute("data-table-page") && "wakeLock" in navigator && !document.hidden) navigator.wakeLock.request("screen").catch(function () {});
  }
  keepAwake(); document.addEventListener("visibilitychange", keepAwake);
})();
