// The site kept on the device. After the first visit the worker fetches everything the build's
// offline manifest lists (every page, the assets, the search data) into a cache named for that
// build and the interface language; only a complete copy is switched in, and then the older ones
// are dropped, so a half-fetched update never replaces a whole one. Pages are answered from the
// complete copy at once (even online: it is the build the server has, or the one before it until
// the new one is whole); a search with a query, an API call or a language switch goes to the
// network first. Hand-written (about 150 lines) rather than Workbox: one cache per build, switched
// whole, is the whole policy, and Workbox's precache would need a build step of its own.
"use strict";

var META = "kb-meta", STATE_URL = new URL("offline/manifest.json", self.registration.scope).href;
var CHECK_EVERY = 10 * 1000, PARALLEL = 4;  // a look for a new build: a small, revalidated request
var syncing = null, lastCheck = 0, progress = { done: 0, total: 0 };

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim().then(function () { check(true); }));
});

// A download runs inside the event that started it (waitUntil), so the browser does not stop
// the worker halfway; an interrupted one resumes from what its cache already holds.
self.addEventListener("message", function (event) {
  var msg = event.data || {};
  if (msg.type === "state") event.waitUntil(current().then(function (meta) { reply(event.source, meta); }));
  if (msg.type === "locale") event.waitUntil(current().then(function (meta) {
    return meta && meta.locale !== msg.locale ? check(true, msg.locale) : check(false);
  }));
});

function reply(client, meta) {
  if (client) client.postMessage({ type: "state", build: meta && meta.build, complete: !!meta,
                                   done: progress.done, total: progress.total, syncing: !!syncing });
}

function broadcast(message) {
  self.clients.matchAll({ includeUncontrolled: true }).then(function (clients) {
    clients.forEach(function (c) { c.postMessage(message); });
  });
}

function current() {  // {build, locale, cache} of the complete copy in use, or null
  return caches.open(META).then(function (c) { return c.match("state"); })
    .then(function (r) { return r ? r.json() : null; });
}

function check(force, locale) {  // a newer build (or another language) is fetched whole, beside the old
  if (syncing || (!force && Date.now() - lastCheck < CHECK_EVERY)) return syncing;
  lastCheck = Date.now();
  syncing = Promise.all([fetch(STATE_URL, { cache: "no-cache" }).then(function (r) {
    if (!r.ok) throw new Error("offline manifest: HTTP " + r.status);
    return r.json();
  }), current()]).then(function (both) {
    var state = both[0], meta = both[1];
    var want = locale || (meta && meta.locale) || "";
    if (meta && meta.build === state.build && meta.locale === want) return meta;
    return copy(state, want);
  }).catch(function () { return null; }).then(function (meta) { syncing = null; return meta; });
  return syncing;
}

function copy(state, locale) {
  var name = "kb-" + state.build + "-" + (locale || "default");
  var urls = state.pages.concat(state.assets, [state.search]).map(function (u) {
    return new URL(u, self.registration.scope).href;
  });
  progress = { done: 0, total: urls.length };
  return caches.open(name).then(function (cache) {
    var queue = urls.slice(), seen = "";
    function next() {
      var url = queue.shift();
      if (!url) return Promise.resolve();
      return cache.match(url).then(function (had) {
        return had || fetch(url, { credentials: "same-origin", cache: "no-cache" }).then(function (r) {
          if (!r.ok) throw new Error(url + ": HTTP " + r.status);
          if (!seen) seen = r.headers.get("content-language") || "";
          return cache.put(url, r);
        });
      }).then(function () {
        progress.done++;
        if (progress.done % 20 === 0 || progress.done === progress.total) {
          broadcast({ type: "progress", done: progress.done, total: progress.total, build: state.build });
        }
        return next();
      });
    }
    var workers = [];
    for (var i = 0; i < PARALLEL; i++) workers.push(next());
    return Promise.all(workers).then(function () {
      var meta = { build: state.build, locale: locale || seen, cache: name, at: new Date().toISOString() };
      return caches.open(META).then(function (m) {
        return m.put("state", new Response(JSON.stringify(meta), { headers: { "content-type": "application/json" } }));
      }).then(function () { return caches.keys(); }).then(function (keys) {
        return Promise.all(keys.filter(function (k) { return k !== META && k !== name; })
          .map(function (k) { return caches.delete(k); }));
      }).then(function () {
        broadcast({ type: "state", build: meta.build, complete: true, done: progress.done, total: progress.total });
        return meta;
      });
    });
  });
}

function fromCopy(request, ignoreSearch) {
  return current().then(function (meta) {
    if (!meta) return caches.match(request, { ignoreSearch: ignoreSearch, ignoreVary: true });
    return caches.open(meta.cache).then(function (c) { return c.match(request, { ignoreSearch: ignoreSearch, ignoreVary: true }); });
  });
}

function searchShell() {
  return fromCopy(new Request(new URL("search", self.registration.scope).href), true)
    .then(function (r) { return r || fromCopy(new Request(new URL("search.html", self.registration.scope).href), true); });
}

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/api/") >= 0 || url.pathname.endsWith("/sw.js") || request.url === STATE_URL) return;
  if (request.mode === "navigate") event.waitUntil(check(false) || Promise.resolve());
  var searching = /\/search(\.html)?$/.test(url.pathname) && url.search;
  if (searching || url.searchParams.has("ui")) {  // the server answers; without it, the copy does
    event.respondWith(fetch(request).catch(function () {
      return searching ? searchShell() : fromCopy(request, true);
    }));
    return;
  }
  event.respondWith(fromCopy(request, false).then(function (kept) {
    return kept || fetch(request).catch(function () {
      return fromCopy(request, true).then(function (r) { return r || Response.error(); });
    });
  }));
});
