// Table Companion: the dice pad (Zock'n'Roll) and the card picker (the card games), on their
// games' pages only, after bundle/site.js (companion/web/assets.py, GAME_SCRIPTS:
// a Rook or score pad table doesn't download them). `on` and `set` are static/js/app.js's.
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
