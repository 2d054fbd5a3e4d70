// The site kept on the device. After the first visit the worker fetches everything the build's
// offline manifest lists (every page, the assets, the search data) into a cache named for that
// build and the interface language; only a complete copy is switched in, and then the older ones
// are dropped, so a half-fetched update never replaces a whole one. A copy is one build's: each
// response must be of the manifest's build (its X-Build), and a build that lands mid-copy drops
// that copy and starts over from the new manifest. Pages are answered from the complete copy at
// once (even online: it is the build the server has, or the one before it until the new one is
// whole); a search with a query, an API call or a language switch goes to the network first.
// Hand-written (under 200 lines) rather than Workbox: one cache per build, switched whole, is
// the whole policy, and Workbox's precache would need a build step of its own.
"use strict";

var META = "kb-meta", STATE_URL = new URL("offline/manifest.json", self.registration.scope).href;
var CHECK_EVERY = 10 * 1000, PARALLEL = 4;  // a look for a new build: a small, revalidated request
var RESTARTS = 3;  // copies begun again in one look when builds land meanwhile
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
  syncing = sync(locale, RESTARTS).catch(function () { return null; })
    .then(function (meta) { syncing = null; return meta; });
  return syncing;
}

function sync(locale, restarts) {  // the manifest's build, copied unless it is the copy in use
  return Promise.all([manifest(), current()]).then(function (both) {
    var state = both[0], meta = both[1];
    var want = locale || (meta && meta.locale) || "";
    if (meta && meta.build === state.build && meta.locale === want) return meta;
    return copy(state, want, meta).catch(function (e) {
      if (e instanceof BuildChanged && restarts > 0) return sync(locale, restarts - 1);
      throw e;
    });
  });
}

function manifest() {
  return fetch(STATE_URL, { cache: "no-cache" }).then(function (r) {
    if (!r.ok) throw new Error("offline manifest: HTTP " + r.status);
    return r.json().then(function (state) {
      state.named = r.headers.has("x-build");
      return state;
    });
  });
}

function BuildChanged(build) { this.build = build; }  // a response of a build other than the copy's

// The server names the build that answered each response, 304s too (X-Build); a plain file
// server (a static copy) names none, its manifest neither, and its files are one build's anyway.
function ofBuild(response, state) {
  var said = response.headers.get("x-build");
  return said ? said === state.build : !state.named;
}

function copy(state, locale, inUse) {  // the manifest's build whole into its cache, or a failure
  var name = "kb-" + state.build + "-" + (locale || "default");
  var urls = state.pages.concat(state.assets, [state.search]).map(function (u) {
    return new URL(u, self.registration.scope).href;
  });
  progress = { done: 0, total: urls.length };
  return Promise.all([caches.open(name), inUse ? caches.open(inUse.cache) : null]).then(function (both) {
    var queue = urls.slice(), seen = "", failed = null;
    function next() {  // one of PARALLEL runners; all stop taking addresses once one has failed
      var url = !failed && queue.shift();
      if (!url) return Promise.resolve();
      return keep(both[0], both[1], url, state).then(function (r) {
        seen = seen || r.headers.get("content-language") || "";
        advance(state.build);
        return next();
      }, function (e) { failed = failed || e; });
    }
    var workers = [];
    for (var i = 0; i < PARALLEL; i++) workers.push(next());
    return Promise.all(workers).then(function () {
      return failed ? abandon(name, failed) : complete(state.build, locale || seen, name);
    });
  });
}

function keep(cache, old, url, state) {  // the copy's entry for an address: the one it holds if of its build, else fetched
  return cache.match(url).then(function (had) {
    if (had && ofBuild(had, state)) return had;
    return (old ? old.match(url) : Promise.resolve(null)).then(function (before) {
      return fetched(url, state, before);
    }).then(function (r) { return cache.put(url, r).then(function () { return r; }); });
  });
}

// The browser's own revalidation would hand back its stored response with the X-Build it was
// stored with, so the worker asks the server itself, the copy in use's entry in hand: a 304 says
// (in its X-Build) which build has that entry unchanged, and the entry is kept without a download.
function fetched(url, state, before) {
  var headers = {}, etag = before && before.headers.get("etag"), modified = before && before.headers.get("last-modified");
  if (etag) headers["if-none-match"] = etag;
  if (modified) headers["if-modified-since"] = modified;
  return fetch(url, { credentials: "same-origin", cache: "no-store", headers: headers }).then(function (r) {
    if (!r.ok && !(r.status === 304 && before)) throw new Error(url + ": HTTP " + r.status);
    if (!ofBuild(r, state)) throw new BuildChanged(r.headers.get("x-build"));
    return r.status === 304 ? restamped(before, state.build) : r;
  });
}

function restamped(response, build) {  // a kept response, of `build` now
  var headers = new Headers(response.headers);
  headers.set("x-build", build);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: headers });
}

function advance(build) {
  progress.done++;
  if (progress.done % 20 === 0 || progress.done === progress.total) {
    broadcast({ type: "progress", done: progress.done, total: progress.total, build: build });
  }
}

// A copy cut by a lost network resumes later from what it holds; one overtaken by a new build
// can never be finished (the server no longer has its build), so it goes.
function abandon(name, error) {
  if (!(error instanceof BuildChanged)) return Promise.reject(error);
  return current().then(function (meta) {
    return meta && meta.cache === name ? null : caches.delete(name);
  }).then(function () { throw error; });
}

function complete(build, locale, name) {  // the whole copy switched in; every other one dropped
  var meta = { build: build, locale: locale, cache: name, at: new Date().toISOString() };
  return caches.open(META).then(function (m) {
    return m.put("state", new Response(JSON.stringify(meta), { headers: { "content-type": "application/json" } }));
  }).then(function () { return caches.keys(); }).then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== META && k !== name; })
      .map(function (k) { return caches.delete(k); }));
  }).then(function () {
    broadcast({ type: "state", build: build, complete: true, done: progress.done, total: progress.total });
    return meta;
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
