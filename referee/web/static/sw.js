// The app's service worker: a page load that finds no network is answered from the phone.
// Each page of a game (and the home page) is kept as last loaded; offline, that copy is shown
// read-only under a banner (moves tapped meanwhile wait in the phone's outbox), and a page
// never loaded shows the app's offline page instead of the browser's error.
"use strict";
var CACHE = "table-referee-pages-v1";
var OFFLINE = "/offline";

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.add(OFFLINE); }));
  self.skipWaiting();
});
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function kept(request) {
  var path = new URL(request.url).pathname;
  return path === "/" || path.indexOf("/g/") === 0;
}

function offlineCopy(response) {
  // The banner in the page's own language: every page carries its sentence (#offline-note).
  return response.text().then(function (html) {
    var note = (html.match(/<template id="offline-note">([^]*?)<\/template>/) || ["", ""])[1];
    var banner = '<p id="offline-banner" class="flash" role="status">' + note + "</p>";
    return new Response(html.replace(/<main([^>]*)>/, "<main$1>" + banner), { headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || request.mode !== "navigate") return;  // moves and live updates: the page's own outbox
  event.respondWith(fetch(request).then(function (response) {
    if (response.ok && kept(request)) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) {
        cache.put(request, copy);
        cache.add(OFFLINE);  // the offline page anew, in the language the phone speaks now
      });
    }
    return response;
  }).catch(function () {
    return caches.match(request).then(function (hit) { return hit ? offlineCopy(hit) : caches.match(OFFLINE); });
  }));
});
