// The app's service worker: a page load that finds no network is answered from the phone.
// A game's page is kept as this phone last showed it: as loaded, then as every live update
// left it (table.js hands over a copy). A copy is its reader's own: the server names whom
// each answer was rendered for (X-Reader: the token and the seat it reads as, never the
// token itself), and the phone keeps a game's copies for one reader at a time, in a cache
// named by game and reader. A page naming another reader (another token, a seat handed on,
// a host who starts to play) drops the copies of the one before, and so does any form sent
// from a game's page (a seat taken, "I play this seat"), until the next page names its
// reader. Offline, the copy shows under a banner and runs (table.js and htmx are kept too;
// the styles are in the page): moves tapped meanwhile wait in the phone's outbox, and the
// page catches up by itself when the connection is back. A page without a copy shows the
// app's offline page instead of the browser's error. The phone keeps the copies of the KEPT
// games it used last (kept or shown), and drops the others'.
"use strict";
var SHARED = "table-referee-app-v2";  // the same for every reader: the offline page, the scripts, the home page
var COPIES = "table-referee-copy:";  // + game + ":" + reader
var USED = "table-referee-used";  // /g/<game> -> when its copies were last used (ms)
var KEPT = 20;
var OFFLINE = "/offline";
var SCRIPTS = ["/static/table.js", "/static/htmx.min.js"];
var HTML = { "Content-Type": "text/html; charset=utf-8" };

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(SHARED).then(function (cache) { return cache.addAll([OFFLINE].concat(SCRIPTS)); }));
  self.skipWaiting();
});
self.addEventListener("activate", function (event) {
  // The first version kept every page by its address alone, for whoever held the phone: gone.
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== SHARED && name !== USED && name.indexOf(COPIES) !== 0; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function gameOf(url) {
  var match = /^\/g\/([A-Za-z0-9_-]+)/.exec(url.pathname);
  return match ? match[1] : null;
}

function copiesOf(game) {
  return caches.keys().then(function (names) {
    return names.filter(function (name) { return name.indexOf(COPIES + game + ":") === 0; });
  });
}

// From now on the game is read by `reader` (null: by nobody known): every other reader's
// copies are dropped; the cache for the reader's own.
function readBy(game, reader) {
  var own = reader ? COPIES + game + ":" + reader : null;
  return copiesOf(game).then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== own; }).map(function (name) { return caches.delete(name); }));
  }).then(function () { return own ? caches.open(own) : null; });
}

// The copies of the game's reader now; none while two readers are being swapped.
function keptFor(game) {
  return copiesOf(game).then(function (names) { return names.length === 1 ? caches.open(names[0]) : null; });
}

// The game's copies were used now: the copies of the KEPT games used last stay, the others go.
function used(game) {
  return caches.open(USED).then(function (uses) {
    return uses.put("/g/" + game, new Response(String(Date.now()))).then(function () {
      return Promise.all([caches.keys(), uses.keys()]);
    }).then(function (found) {
      var last = new Map();  // game -> when its copies were last used (0: kept before uses were counted)
      found[0].forEach(function (name) { if (name.indexOf(COPIES) === 0) last.set(name.slice(COPIES.length).split(":")[0], 0); });
      return Promise.all(found[1].map(function (request) {
        var other = gameOf(new URL(request.url));
        if (!last.has(other)) return uses.delete(request);  // its copies are gone already
        return uses.match(request).then(function (hit) { return hit.text(); }).then(function (when) { last.set(other, Number(when)); });
      })).then(function () {
        var oldest = Array.from(last.keys()).sort(function (a, b) { return last.get(b) - last.get(a); }).slice(KEPT);
        return Promise.all(oldest.map(function (other) { return Promise.all([readBy(other, null), uses.delete("/g/" + other)]); }));
      });
    });
  });
}

// A page hands over what it shows after a live update, with the reader that update named.
self.addEventListener("message", function (event) {
  var copy = event.data || {};
  if (copy.type !== "keep" || typeof copy.url !== "string" || typeof copy.html !== "string" || typeof copy.reader !== "string") return;
  var url = new URL(copy.url, self.location.origin);
  var game = url.origin === self.location.origin ? gameOf(url) : null;
  if (!game || !copy.reader) return;
  url.hash = "";
  event.waitUntil(readBy(game, copy.reader).then(function (cache) { return cache.put(url.href, new Response(copy.html, { headers: HTML })); })
    .then(function () { return used(game); }));
});

function offlineCopy(response) {
  // The banner in the page's own language: every page carries its sentence (#offline-note);
  // the age of the copy from when it was kept (the page's data-kept, else the answer's Date).
  var kept = Date.parse(response.headers.get("Date") || "");
  return response.text().then(function (html) {
    if (kept && html.indexOf("data-kept=") < 0) html = html.replace(/<html/, '<html data-kept="' + kept + '"');
    var note = (html.match(/<template id="offline-note">([^]*?)<\/template>/) || ["", ""])[1];
    var banner = '<p id="offline-banner" class="flash" role="status">' + note + "</p>";
    return new Response(html.replace(/<main([^>]*)>/, "<main$1>" + banner), { headers: HTML });
  });
}

function page(event, url, game) {
  return fetch(event.request).then(function (response) {
    var reader = response.headers.get("X-Reader");
    if (response.ok && (game ? reader : url.pathname === "/")) {
      var copy = response.clone();
      event.waitUntil((game ? readBy(game, reader) : caches.open(SHARED)).then(function (cache) {
        return Promise.all([cache.put(game ? url.href : "/", copy).then(function () { return game && used(game); }),  // the home page: this browser's games, no seat's secrets
          caches.open(SHARED).then(function (shared) { return shared.add(OFFLINE); })]);  // in the language the phone speaks now
      }));
    }
    return response;
  }).catch(function () {
    var kept = game ? keptFor(game) : url.pathname === "/" ? caches.open(SHARED) : Promise.resolve(null);
    return kept.then(function (cache) { return cache && cache.match(game ? url.href : "/"); }).then(function (hit) {
      if (hit && game) event.waitUntil(used(game));
      return hit ? offlineCopy(hit) : caches.open(SHARED).then(function (cache) { return cache.match(OFFLINE); });
    });
  });
}

// The scripts the page runs: fresh from the network, the kept ones offline.
function script(request, url) {
  return fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(SHARED).then(function (cache) { return cache.put(url.pathname, copy); });
    }
    return response;
  }).catch(function () {
    return caches.open(SHARED).then(function (cache) { return cache.match(url.pathname); })
      .then(function (hit) { return hit || Response.error(); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  var game = gameOf(url);
  if (request.mode === "navigate" && request.method !== "GET") {
    if (game) event.waitUntil(readBy(game, null));  // a form may change who reads the game (the network answers it)
  } else if (request.mode === "navigate") {
    event.respondWith(page(event, url, game));
  } else if (request.method === "GET" && SCRIPTS.indexOf(url.pathname) >= 0) {
    event.respondWith(script(request, url));
  }
  // moves and live updates go to the network alone: a failed one waits in the outbox or
  // says "Reconnecting…" (table.js)
});
