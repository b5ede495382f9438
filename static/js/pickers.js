// Table Companion: the dice pad (Zock'n'Roll), the card picker (the card games) and the
// score boxes' Enter key (score pad, Rainbow Rummy), on their games' pages only, after
// bundle/site.js (companion/web/assets.py, game_scripts: a Rook table doesn't download
// them). `on` and `set` are static/js/app.js's.
(function () {
  "use strict";
  var on = window.companion.on, set = window.companion.set;

  // Dice pad (Zock'n'Roll): a face adds a die to the box ("2 5 6"), ⌫ takes the last off.
  on("click", "[data-die], [data-die-back]", function (button) {
    var pad = button.closest("[data-dice-pad]"), input = pad && pad.querySelector("[data-dice-input]");
    if (!input) return;
    var dice = input.value.replace(/[^1-6]/g, "").split("");
    if (button.hasAttribute("data-die-back")) dice.pop();
    else if (dice.length < parseInt(pad.getAttribute("data-max"), 10)) dice.push(button.getAttribute("data-die"));
    set(input, dice.join(" "));
  });

  // Boxes that all need a number ([data-fill-all]: the score pad's, Rainbow Rummy's points;
  // an empty box is never a score): Enter (a phone keyboard's "Next"/"Go") goes to the next
  // empty box, round to the first, and saves only once every box is filled; each box's
  // enterkeyhint says which. The attribute's value picks the boxes (default: every input);
  // a box is not needed while the box named by its data-or holds something (the cards
  // tapped instead) or its data-unless selector matches (the player who went out).
  function boxesOf(group) { return Array.prototype.slice.call(group.querySelectorAll(group.getAttribute("data-fill-all") || "input:not([type=hidden])")); }
  function isEmpty(box) {
    var or = box.getAttribute("data-or") && document.getElementById(box.getAttribute("data-or"));
    var unless = box.getAttribute("data-unless");
    return !box.value.trim() && !(or && or.value.trim()) && !(unless && document.querySelector(unless));
  }
  function enterHints(group) {
    var boxes = boxesOf(group), left = boxes.filter(isEmpty).length;
    boxes.forEach(function (box) { box.setAttribute("enterkeyhint", left === 0 || (left === 1 && isEmpty(box)) ? "done" : "next"); });
  }
  document.addEventListener("keydown", function (e) {
    var box = e.target, group = e.key === "Enter" && !e.isComposing && box.closest && box.closest("[data-fill-all]");
    if (!group || box.tagName !== "INPUT") return;
    var boxes = boxesOf(group), i = boxes.indexOf(box);
    if (i < 0) return;   // not one of the group's boxes (a card picker's, say)
    var empty = boxes.slice(i + 1).concat(boxes.slice(0, i + 1)).filter(isEmpty);
    if (!empty.length) return;   // every box has a number: Enter saves
    e.preventDefault();
    empty[0].focus();
  });
  on("input", "[data-fill-all] input", function (box) { enterHints(box.closest("[data-fill-all]")); });
  document.addEventListener("htmx:after:process", function () { Array.prototype.forEach.call(document.querySelectorAll("[data-fill-all]"), enterHints); });

  // Card picker (templates/_cards.html): rank, then suit; a joker adds at once; data-copies/-max cap it.
  function cardsIn(input) { return input.value.trim().toUpperCase().split(/[\s,]+/).filter(Boolean); }
  on("click", "[data-rank], [data-suit], [data-card], [data-card-back], [data-card-clear]", function (button) {
    var picker = button.closest("[data-card-picker]"), input = picker && picker.querySelector("[data-card-input]");
    if (!input) return;
    var cards = cardsIn(input), pressed = picker.querySelector("[data-rank][aria-pressed=true]"), card = null;
    if (button.hasAttribute("data-card-clear")) {   // Clear: the whole tray at once
      if (pressed) pressed.setAttribute("aria-pressed", "false");
      set(input, "");
      input.focus();
      return;
    }
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

  // The picked cards' running total ([data-card-total], Rainbow Rummy): "rank:points …"
  // from the server (RR-11); a card it can't read leaves the total blank (the server says why).
  on("input", "[data-card-input]", function (input) {
    var picker = input.closest("[data-card-picker]"), out = picker && picker.querySelector("[data-card-total]");
    if (!out) return;
    var worth = {}, pairs = out.getAttribute("data-rank-points").split(" "), sum = 0, cards = cardsIn(input);
    for (var i = 0; i < pairs.length; i++) { var kv = pairs[i].split(":"); worth[kv[0]] = parseInt(kv[1], 10); }
    for (var j = 0; j < cards.length; j++) {
      var points = worth[cards[j].slice(0, -1)];
      if (points === undefined) { sum = NaN; break; }
      sum += points;
    }
    out.textContent = cards.length && !isNaN(sum) ? out.getAttribute("data-text").replace("{points}", sum) : "";
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
})();
