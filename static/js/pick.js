// Tap-to-pick on a group's new-table form (templates/new_table.html, [data-pick]): each chip
// is one of the group's players; a tap puts them in the next empty seat, a second tap takes
// them out and the seats after close up, so the seats follow the order of the taps. The name
// boxes stay the form's fields (name_0, name_1, ...: what /new/<slug> posts), so the chips
// only fill them; a name typed into a box lights its chip. The add box (no name: never
// posted) makes a chip for a new player, who joins the group when the table is made.
(function () {
  "use strict";
  var pick = document.querySelector("[data-pick]"), form = pick && pick.closest("form");
  if (!form) return;
  var boxes = Array.prototype.slice.call(form.querySelectorAll("input[name^='name_']"));
  var chips = pick.querySelector("[data-pick-chips]"), full = pick.querySelector("[data-pick-full]");
  var newBox = pick.querySelector("[data-pick-new]");
  function key(name) { return name.trim().toLocaleLowerCase(); }
  function names() { return boxes.map(function (b) { return b.value.trim(); }).filter(Boolean); }
  function find(list, name) { var k = key(name); for (var i = 0; i < list.length; i++) if (key(list[i]) === k) return i; return -1; }
  function write(list) {
    boxes.forEach(function (box, i) {
      box.value = list[i] || "";
      var more = box.closest("details");
      if (more && box.value) more.open = true;
    });
  }
  function sync() {
    var list = names();
    Array.prototype.forEach.call(chips.querySelectorAll("[data-pick-name]"), function (chip) {
      var i = find(list, chip.getAttribute("data-pick-name"));
      chip.setAttribute("aria-pressed", i >= 0 ? "true" : "false");
      if (i >= 0) chip.setAttribute("data-seat", String(i + 1)); else chip.removeAttribute("data-seat");
    });
    if (list.length < boxes.length) full.hidden = true;
  }
  function toggle(name) {
    var list = names(), i = find(list, name);
    if (i >= 0) list.splice(i, 1);
    else if (list.length < boxes.length) list.push(name);
    else { full.hidden = false; return; }
    write(list);
    sync();
  }
  function add() {
    var name = newBox.value.trim().replace(/\s+/g, " ");
    if (!name) return;
    var existing = Array.prototype.filter.call(chips.querySelectorAll("[data-pick-name]"), function (chip) {
      return key(chip.getAttribute("data-pick-name")) === key(name);
    })[0];
    if (!existing) {
      existing = document.createElement("button");
      existing.type = "button";
      existing.className = "chip";
      existing.setAttribute("data-pick-name", name);
      existing.setAttribute("aria-pressed", "false");
      existing.textContent = name;
      chips.appendChild(existing);
    }
    newBox.value = "";
    if (existing.getAttribute("aria-pressed") !== "true") toggle(name);
  }
  chips.addEventListener("click", function (e) {
    var chip = e.target.closest && e.target.closest("[data-pick-name]");
    if (chip) toggle(chip.getAttribute("data-pick-name"));
  });
  pick.querySelector("[data-pick-add]").addEventListener("click", add);
  newBox.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && !e.isComposing) { e.preventDefault(); add(); }
  });
  boxes.forEach(function (box) { box.addEventListener("input", sync); });
  pick.hidden = false;
  sync();
})();
