// Table Companion's service worker: the table page opens without a connection, with the last
// sheet and the entries waiting on this phone (docs/SECURITY.md, "Offline entries").
// Served at <root>/sw.js (web/home.py), so its scope is the app's root, or its path prefix;
// static/js/app.js registers it. Browsers run service workers on https:// and on localhost
// only: on a plain-http LAN address the page works as before, without it.
//
// What it keeps (one cache, "companion-v1"), only answers the app itself made (X-Companion: 1,
// status 200), never a POST, the live stream or a proxy's page:
// - static files (/static/...): the fingerprinted ones (?v=) are answered from the cache
//   first (they never change under that address; an older fingerprint of the same file is
//   dropped when a new one is kept), the others from the network first;
// - the table page (/t/<id>) and its play fragment (/t/<id>/play), network first, each time
//   they load, and the fragment again 2 s after a write at that table (the write's own answer
//   isn't kept); a copy per table, for the TABLES tables opened last.
// When the network fails, or answers with a page that isn't the app's (a proxy's 502/503/504),
// a table page is answered from its copy, marked offline: <body data-offline-copy> and
// static/js/offline.js added (the offline note; the kept play fragment, if newer).
"use strict";

var CACHE = "companion-v1";
var TABLES = 20;
var BASE = new URL(self.registration.scope).pathname;   // "/" or "/<prefix>/"
var OFFLINE_SCRIPT = "static/js/offline.js";   // added to an offline copy: its note, its sheet

function kind(url) {
  if (url.origin !== self.location.origin || url.pathname.indexOf(BASE) !== 0) return null;
  var path = url.pathname.slice(BASE.length);
  if (/^static\//.test(path)) return "static";
  if (/^t\/[^/]+$/.test(path)) return "page";
  if (/^t\/[^/]+\/play$/.test(path)) return "play";
  return null;
}

function key(url) { return url.origin + url.pathname; }   // a page's copy, whatever its query

// The app's own full answer: 200 (not a 204 "nothing changed", not an error), marked.
function ours(response) {
  return response && response.status === 200 && response.type === "basic" && response.headers.get("X-Companion") === "1";
}

function keep(name, response, url) {
  return caches.open(CACHE).then(function (cache) {
    return cache.put(name, response).then(function () { return trim(cache, url); });
  }).catch(function () {});   // storage full or refused: the page works without a copy
}

// Drop an older fingerprint of the same static file; keep the TABLES table pages kept last
// (a put moves an entry to the end of the cache's order) and their fragments.
function trim(cache, url) {
  return cache.keys().then(function (requests) {
    var pages = [], gone = [];
    requests.forEach(function (request) {
      var other = new URL(request.url), what = kind(other);
      if (what === "static" && other.pathname === url.pathname && other.search !== url.search) gone.push(request);
      if (what === "page") pages.push(other);
    });
    pages.slice(0, Math.max(0, pages.length - TABLES)).forEach(function (page) {
      gone.push(key(page)); gone.push(key(page) + "/play");
    });
    return Promise.all(gone.map(function (request) { return cache.delete(request); }));
  });
}

function staticFile(event, request, url) {
  return caches.match(request, { ignoreVary: true }).then(function (hit) {
    if (hit && url.searchParams.has("v")) return hit;
    return fetch(request).then(function (response) {
      if (ours(response)) event.waitUntil(keep(request, response.clone(), url));
      return response;
    }, function (error) { if (hit) return hit; throw error; });
  });
}

// The kept copy of a table page, marked as such; null if there is none.
function offlineCopy(url) {
  return caches.match(key(url), { ignoreVary: true }).then(function (hit) {
    if (!hit) return null;
    return hit.text().then(function (text) {
      var headers = new Headers(hit.headers);
      headers.delete("Content-Encoding"); headers.delete("Content-Length");
      headers.set("X-Companion-Offline", "1");
      text = text.replace(/<body(\s|>)/, "<body data-offline-copy$1")
                 .replace("</head>", '<script src="' + BASE + OFFLINE_SCRIPT + '" defer></script></head>');
      return new Response(text, { status: 200, headers: headers });
    });
  });
}

// A table page's copy, and the static files it names (fetched here if not kept yet).
function keepPage(url, response) {
  var copy = response.clone();
  return Promise.all([keep(key(url), response, url), copy.text().then(function (text) {
    var files = [], found, named = /(?:src|href)="([^"]*\/static\/[^"]+)"/g;
    while ((found = named.exec(text))) files.push(found[1].replace(/&amp;/g, "&"));
    return Promise.all(files.map(keepFile));
  })]).catch(function () {});
}

function keepFile(href) {
  var url = new URL(href, self.location.href);
  if (kind(url) !== "static") return null;
  return caches.match(url.href, { ignoreVary: true }).then(function (hit) {
    if (!hit) return fetch(url.href).then(function (response) { if (ours(response)) return keep(url.href, response, url); });
  }).catch(function () {});
}

function page(event, request, url) {
  return fetch(request).then(function (response) {
    if (ours(response) && /^text\/html/.test(response.headers.get("Content-Type") || "")) {
      event.waitUntil(keepPage(url, response.clone()));
      return response;
    }
    // A redirect (to the seats, to the start page) or the app's own refusal stands; a table
    // that is gone (404) loses its copy.
    if (response.type === "opaqueredirect" || response.headers.get("X-Companion") === "1") {
      if (response.status === 404) event.waitUntil(caches.open(CACHE).then(function (cache) {
        return Promise.all([cache.delete(key(url)), cache.delete(key(url) + "/play")]);
      }));
      return response;
    }
    return offlineCopy(url).then(function (copy) { return copy || response; });   // a proxy's page
  }, function (error) {
    return offlineCopy(url).then(function (copy) { if (copy) return copy; throw error; });
  });
}

// The play fragment: kept each time it loads. `X-Companion-Cache: only` (app.js, on an
// offline copy of the page) asks for the kept one without trying the network.
function play(event, request, url) {
  if (request.headers.get("X-Companion-Cache") === "only") {
    return caches.match(key(url), { ignoreVary: true }).then(function (hit) { return hit || Response.error(); });
  }
  return fetch(request).then(function (response) {
    if (ours(response)) event.waitUntil(keep(key(url), response.clone(), url));
    return response;
  });
}

// A write at a table (passed on as it is): its answer, the newest sheet, isn't kept (no POST
// is), so the play fragment is fetched and kept a moment later, if the table has a copy. One
// fetch per table however many writes come meanwhile (an outbox sending several).
var due = {};
function keepSheetAfterWrite(url) {
  var table = /^t\/([^/]+)\//.exec(url.pathname.slice(BASE.length));
  if (url.pathname.indexOf(BASE) !== 0 || !table || due[table[1]]) return null;
  var page = new URL(BASE + "t/" + table[1], url), play = new URL(page.href + "/play");
  due[table[1]] = true;
  return new Promise(function (resolve) { setTimeout(resolve, 2000); }).then(function () {
    delete due[table[1]];
    return caches.match(key(page), { ignoreVary: true });
  }).then(function (hit) {
    if (hit) return fetch(play.href, { headers: { "HX-Request": "true" } });
  }).then(function (response) {
    if (ours(response)) return keep(key(play), response, play);
  }).catch(function () { delete due[table[1]]; });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") {                              // writes go as they are
    var at = new URL(request.url), later = at.origin === self.location.origin && keepSheetAfterWrite(at);
    if (later) event.waitUntil(later);
    return;
  }
  if ((request.headers.get("Accept") || "").indexOf("text/event-stream") >= 0) return;
  var url = new URL(request.url), what = kind(url);
  if (what === "static") event.respondWith(staticFile(event, request, url));
  else if (what === "page" && request.mode === "navigate") event.respondWith(page(event, request, url));
  else if (what === "play" && request.headers.get("HX-Request") === "true") event.respondWith(play(event, request, url));
});

self.addEventListener("install", function (event) {
  self.skipWaiting();
  event.waitUntil(keepFile(BASE + OFFLINE_SCRIPT));
});
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== CACHE; })
                            .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }).then(function () {
    // The table pages open before this worker was there (the first visit): kept now.
    return self.clients.matchAll({ type: "window" });
  }).then(function (windows) {
    return Promise.all(windows.map(function (client) {
      var url = new URL(client.url);
      if (kind(url) !== "page") return null;
      return fetch(url.href, { credentials: "same-origin", redirect: "manual" }).then(function (response) {
        if (ours(response)) return keepPage(url, response);
      }).catch(function () {});
    }));
  }));
});
