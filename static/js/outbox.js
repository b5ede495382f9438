// Table Companion: the outbox, so that a blinking Wi-Fi loses nothing.
// A write tapped while the server can't be reached (htmx:error with no answer at all: offline,
// dropped, timed out, or an answer that isn't the app's own, e.g. a proxy's 502 page: see
// static/js/app.js) stays on the phone in localStorage and is sent again by itself, on the
// `online` event, every 3 s and when the page loads again. Its answer is swapped in like any
// other (saved, refused, conflict). Resending is safe because only writes carrying the form's
// one-time submission id (sid) are kept: the server stores one write per sid, and a repeat
// gets "already saved" (docs/SECURITY.md, "Offline entries"). The notice is #outbox, below
// the entry form (tables/table.html), which also gives the table id and the words.
(function () {
  "use strict";
  var box = document.getElementById("outbox"), list = document.getElementById("outbox-list");
  if (!box || !list || !window.htmx) return;
  var key = "companion-outbox:" + box.getAttribute("data-table");
  var LEASE = 20000;   // ms an attempt may take (htmx's timeout is 15 s): no second copy meanwhile
  var memory = null;   // when localStorage refuses (private mode, full), this page keeps them

  function load() {
    if (memory) return memory;
    try { return JSON.parse(localStorage.getItem(key)) || []; } catch (e) { return []; }
  }
  function store(items) {
    try {
      if (items.length) localStorage.setItem(key, JSON.stringify(items)); else localStorage.removeItem(key);
      memory = null;
    } catch (e) { memory = items; }
    show(items);
  }
  function find(items, sid) { return items.filter(function (item) { return item.sid === sid; })[0]; }

  // The notice: what is waiting, in the player's words ("Save round 2: Ann 10, Bob 1").
  function show(items) {
    var was = !box.hidden;
    list.textContent = "";
    items.forEach(function (item) {
      var li = document.createElement("li"); li.textContent = item.what; list.appendChild(li);
    });
    box.hidden = !items.length;
    if (items.length && !was) box.scrollIntoView({ block: "nearest" });
  }
  function describe(form, button) {
    var words = [], els = form ? form.elements : [];
    for (var i = 0; i < els.length; i++) {
      var el = els[i], label = el.labels && el.labels[0], check = el.type === "checkbox" || el.type === "radio";
      if (!label || el.type === "hidden" || !el.value || (check && !el.checked)) continue;
      var value = el.tagName === "SELECT" ? el.options[el.selectedIndex].text : check ? "" : el.value;
      words.push((label.textContent.trim() + " " + value).trim());
    }
    var said = (button ? button.textContent.trim().split("\n")[0] : "") + (words.length ? ": " + words.join(", ") : "");
    return said.length > 140 ? said.slice(0, 139) + "…" : said || box.getAttribute("data-entry");
  }

  // A write that got no answer: keep it (an HTTP error answer is an answer, swapped as usual).
  document.addEventListener("htmx:error", function (e) {
    var ctx = e.detail.ctx, req = ctx && ctx.request;
    if (!req || ctx.response || ctx.outbox || req.method === "GET" || !req.body) return;
    var body = new URLSearchParams(req.body), sid = body.get("sid");
    if (!sid) return;   // without a submission id a resend could enter it twice: never kept
    var items = load(), item = find(items, sid) || { sid: sid };
    if (items.indexOf(item) < 0) items.push(item);
    item.action = req.action; item.method = req.method; item.body = body.toString();
    item.target = ctx.target && ctx.target.id ? "#" + ctx.target.id : null; item.swap = ctx.swap;
    item.what = describe(req.form, req.submitter);
    store(items);
  });

  // Our own resend: the stored body (CSRF token and sid included). A player's new tap on a form
  // that is waiting updates the waiting copy and sends it now: never a second request beside it.
  document.addEventListener("htmx:config:request", function (e) {
    var ctx = e.detail.ctx, req = ctx.request;
    if (ctx.outbox) { req.body = new URLSearchParams(ctx.outbox.body); return; }
    if (req.method === "GET" || !req.body || !req.body.get) return;
    var items = load(), item = find(items, req.body.get("sid"));
    if (!item) return;
    e.preventDefault();
    if (item.until > Date.now()) return;   // on its way already: its answer will come
    item.body = new URLSearchParams(req.body).toString(); item.what = describe(req.form, req.submitter);
    store(items); send();
  });
  // An answer came through (any status): the server has the write, or has refused it. One
  // exception: a refusal because the CSRF token it carries is stale (X-Companion-Retry: csrf,
  // web/errors.py; e.g. the browser lost its session cookie). Nothing was stored, and the
  // refusal brings a fresh token (X-CSRFToken): the entry takes it and is sent once more,
  // with the same submission id. A second such refusal is an answer like any other.
  document.addEventListener("htmx:after:request", function (e) {
    var ctx = e.detail.ctx, item = ctx.outbox, h = ctx.response.headers, token = h.get("X-CSRFToken");
    if (!item) return;
    if (h.get("X-Companion-Retry") && token && !item.renewed) {
      var body = new URLSearchParams(item.body); body.set("csrf_token", token);
      item.body = body.toString(); item.renewed = item.again = true; e.preventDefault();   // not swapped
    } else item.delivered = true;
  });

  // Send the oldest waiting write, one at a time. The lease (`until`, kept in storage) stops
  // another tab of this phone or an overlapping timer from sending the same entry meanwhile.
  var busy = false;
  function send() {
    if (busy) return;
    var items = load(), now = Date.now();
    var item = items.filter(function (x) { return !(x.until > now); })[0];
    if (!item) return;
    busy = true; item.until = now + LEASE; store(items);
    var there = item.target && document.querySelector(item.target);   // else: sent, answer dropped
    htmx.ajax(item.method, item.action, { target: there ? item.target : "body", swap: there ? item.swap : "none", outbox: item })
      .catch(function () {})
      .then(function () {
        busy = false;
        var left = load(), mine = find(left, item.sid);
        if (item.delivered) left = left.filter(function (x) { return x !== mine; });
        else if (mine) { delete mine.until; if (item.again) { mine.body = item.body; mine.renewed = true; } }
        store(left);
        if (item.delivered || item.again) send();   // the next one, or this one with its new token
      });
  }

  window.addEventListener("online", send);
  setInterval(send, 3000);
  // Leaving the page with an unsent entry asks first (it would still be sent on coming back).
  window.addEventListener("beforeunload", function (e) {
    if (load().length) { e.preventDefault(); e.returnValue = ""; }
  });
  show(load());
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", send); else send();
})();
