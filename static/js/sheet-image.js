// A finished sheet as a picture (templates/_sheet_image.html): a tap on
// [data-sheet-image="<id>"] reads the JSON in the element <id> (companion/web/sheet_image.py:
// title, date, columns, rows of changes and running totals, totals, result), draws it on a
// canvas with the phone's own fonts (so every script's names show) and makes a PNG. A phone
// that can share files (the Web Share API) offers it to its apps; any other downloads it.
// Loaded only by the pages that offer the picture, never by the table page.
(function () {
  "use strict";
  var FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, "Hiragino Sans", "Noto Sans CJK JP", "Noto Sans", sans-serif';
  var SCALE = 2, PAD = 24, ROW = 46, HEAD = 40;
  var INK = "#1d2330", SOFT = "#5b6472", LINE = "#d9dee7", ACCENT = "#1f6f4a", BAND = "#f3f6f9";

  function font(size, weight) { return (weight || "400") + " " + size + "px " + FONT; }
  function fit(ctx, text, width) {
    text = String(text == null ? "" : text);
    if (ctx.measureText(text).width <= width) return text;
    while (text.length > 1 && ctx.measureText(text + "…").width > width) text = text.slice(0, -1);
    return text + "…";
  }
  function signed(n) { return n > 0 ? "+" + n : String(n); }

  function draw(data) {
    var cols = data.columns || [], rows = data.rows || [];
    var measure = document.createElement("canvas").getContext("2d");
    measure.font = font(15, "600");
    var labelW = rows.reduce(function (most, row) { return Math.max(most, measure.measureText(row.label || "").width + 16); }, 120);
    labelW = Math.min(Math.ceil(labelW), 260);
    var colW = Math.max(96, Math.min(160, Math.floor(640 / Math.max(cols.length, 1))));
    var width = Math.max(520, PAD * 2 + labelW + cols.length * colW);
    var players = (data.players || []).join(", ");
    var top = PAD + 34 + 24 + (players ? 24 : 0) + (data.result ? 34 : 0) + 12;
    var height = top + HEAD + rows.length * ROW + ROW + PAD;
    var canvas = document.createElement("canvas");
    canvas.width = width * SCALE;
    canvas.height = height * SCALE;
    var ctx = canvas.getContext("2d");
    ctx.scale(SCALE, SCALE);
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, width, height);
    ctx.textBaseline = "alphabetic";
    var y = PAD + 26;
    ctx.fillStyle = INK; ctx.font = font(26, "700"); ctx.textAlign = "left";
    ctx.fillText(fit(ctx, data.title, width - PAD * 2), PAD, y);
    y += 24;
    ctx.fillStyle = SOFT; ctx.font = font(15);
    ctx.fillText(fit(ctx, [data.date, data.code].filter(Boolean).join(" · "), width - PAD * 2), PAD, y);
    if (players) {
      y += 24;
      ctx.fillText(fit(ctx, (data.words && data.words.players ? data.words.players + ": " : "") + players, width - PAD * 2), PAD, y);
    }
    if (data.result) {
      y += 34;
      ctx.fillStyle = ACCENT; ctx.font = font(20, "700");
      ctx.fillText(fit(ctx, data.result, width - PAD * 2), PAD, y);
    }
    y = top;
    // The head: who each column is.
    ctx.fillStyle = BAND; ctx.fillRect(PAD, y, width - PAD * 2, HEAD);
    ctx.fillStyle = INK; ctx.font = font(15, "700"); ctx.textAlign = "right";
    cols.forEach(function (name, i) {
      ctx.fillText(fit(ctx, name, colW - 10), PAD + labelW + (i + 1) * colW - 6, y + 26);
    });
    y += HEAD;
    rows.forEach(function (row) {
      ctx.strokeStyle = LINE; ctx.beginPath(); ctx.moveTo(PAD, y + ROW); ctx.lineTo(width - PAD, y + ROW); ctx.stroke();
      ctx.textAlign = "left"; ctx.fillStyle = INK; ctx.font = font(15, "600");
      ctx.fillText(fit(ctx, row.label, labelW - 8), PAD + 4, y + (row.note ? 20 : 28));
      if (row.note) { ctx.fillStyle = SOFT; ctx.font = font(12); ctx.fillText(fit(ctx, row.note, labelW - 8), PAD + 4, y + 38); }
      ctx.textAlign = "right";
      cols.forEach(function (_name, i) {
        var x = PAD + labelW + (i + 1) * colW - 6;
        var change = (row.changes || [])[i], running = (row.running || [])[i];
        if (change != null) { ctx.fillStyle = SOFT; ctx.font = font(12); ctx.fillText(signed(change), x, y + 18); }
        if (running != null) { ctx.fillStyle = INK; ctx.font = font(17, "600"); ctx.fillText(String(running), x, y + (change != null ? 38 : 30)); }
      });
      y += ROW;
    });
    // The totals, bold on a band, the winners' in the accent colour.
    ctx.fillStyle = BAND; ctx.fillRect(PAD, y, width - PAD * 2, ROW);
    ctx.textAlign = "left"; ctx.fillStyle = INK; ctx.font = font(16, "700");
    ctx.fillText(fit(ctx, data.words && data.words.total || "Total", labelW - 8), PAD + 4, y + 30);
    ctx.textAlign = "right"; ctx.font = font(20, "700");
    cols.forEach(function (name, i) {
      var total = (data.totals || [])[i];
      ctx.fillStyle = (data.winners || []).indexOf(name) >= 0 ? ACCENT : INK;
      ctx.fillText(total == null ? "" : String(total), PAD + labelW + (i + 1) * colW - 6, y + 31);
    });
    return canvas;
  }

  function save(blob, name) {
    var url = URL.createObjectURL(blob), a = document.createElement("a");
    a.href = url; a.download = name; a.hidden = true;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(url); a.remove(); }, 10000);
  }

  function say(box, key) {
    var status = box && box.querySelector("[data-sheet-image-status]");
    if (!status) return;
    status.textContent = status.getAttribute(key) || "";
    status.hidden = false;
  }

  function share(button) {
    var source = document.getElementById(button.getAttribute("data-sheet-image"));
    var box = button.closest("[data-sheet-image-box]");
    var data;
    try { data = JSON.parse(source.textContent); } catch (e) { say(box, "data-failed"); return; }
    var canvas = draw(data);
    canvas.toBlob(function (blob) {
      if (!blob) { say(box, "data-failed"); return; }
      var name = data.filename || "sheet.png";
      var file = typeof File === "function" ? new File([blob], name, { type: "image/png" }) : null;
      if (file && navigator.canShare && navigator.share && navigator.canShare({ files: [file] })) {
        navigator.share({ files: [file], title: data.title }).then(function () { say(box, "data-done"); },
          function (error) { if (!error || error.name !== "AbortError") save(blob, name); });
        return;
      }
      save(blob, name);
      say(box, "data-done");
    }, "image/png");
  }

  Array.prototype.forEach.call(document.querySelectorAll("[data-sheet-image-box]"), function (box) {
    box.hidden = false;
  });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-sheet-image]");
    if (button) { event.preventDefault(); share(button); }
  });
}());
