// The site kept on the device, in the reader's interface language. After the first visit the worker
// fetches everything the build's offline manifest lists — that language's pages in one pack (one
// gzipped file, unpacked here into a page each), the assets and the search data every language
// shares — into a cache named for that build and language; only a complete copy is switched in,
// and then the older ones are dropped, so a half-fetched update never replaces a whole one. A copy
// is one build's: each response must be of the manifest's build (its X-Build), and a build that
// lands mid-copy drops that copy and starts over from the new manifest. Pages are answered from the
// complete copy at once (even online); a search with a query, an API call, a language switch and
// any page of a language the copy is not in go to the network first. Another language is fetched
// (the pack alone: the shared files are confirmed by 304s) when a page of it is read; offline, a
// page of a language not kept says so, in that language, and links the same page in the one kept.
// Hand-written rather than Workbox: one cache per build, switched whole, is the whole policy.
"use strict";

var META = "kb-meta", SCOPE = self.registration.scope, STATE_URL = new URL("offline/manifest.json", SCOPE).href;
var CHECK_EVERY = 10 * 1000, PARALLEL = 4;  // a look for a new build: a small, revalidated request
var RESTARTS = 3;  // copies begun again in one look when builds land meanwhile
var syncing = null, lastCheck = 0, progress = { done: 0, total: 0 }, wanted = null;

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim().then(function () { check(true); }));
});

// A download runs inside the event that started it (waitUntil), so the browser does not stop
// the worker halfway; an interrupted one resumes from what its cache already holds.
self.addEventListener("message", function (event) {
  var msg = event.data || {};
  if (msg.type === "state") event.waitUntil(current().then(function (meta) { reply(event.source, meta); }));
  if (msg.type === "locale" && msg.locale) event.waitUntil(remember(msg.locale).then(current).then(function (meta) {
    return check(!meta || meta.locale !== msg.locale);
  }));
});

function reply(client, meta) {
  if (client) client.postMessage({ type: "state", build: meta && meta.build, locale: meta && meta.locale, complete: !!meta,
                                   done: progress.done, total: progress.total, syncing: !!syncing });
}

function broadcast(message) {
  self.clients.matchAll({ includeUncontrolled: true }).then(function (clients) {
    clients.forEach(function (c) { c.postMessage(message); });
  });
}

function current() {  // {build, locale, cache, …} of the complete copy in use, or null
  return caches.open(META).then(function (c) { return c.match("state"); })
    .then(function (r) { return r ? r.json() : null; });
}

function remember(locale) {  // the language the reader reads in: the last one a page said
  wanted = locale;
  return caches.open(META).then(function (c) { return c.put("wanted", new Response(locale)); });
}

function readerCookie() {  // the language the server reads from its cookie, where a worker can read cookies too
  if (!self.cookieStore) return Promise.resolve(null);
  return self.cookieStore.get("ui").then(function (c) { return c ? c.value : null; }, function () { return null; });
}

function asked() {
  if (wanted) return Promise.resolve(wanted);
  return caches.open(META).then(function (c) { return c.match("wanted"); })
    .then(function (r) { return r ? r.text() : null; }).then(function (w) { wanted = wanted || w; return wanted; });
}

function check(force) {  // a newer build (or another language) is fetched whole, beside the old
  if (syncing || (!force && Date.now() - lastCheck < CHECK_EVERY)) return syncing;
  lastCheck = Date.now();
  var before = wanted;
  syncing = sync(RESTARTS).then(function (meta) {
    syncing = null;
    return wanted !== before ? check(true) : meta;  // a language asked for meanwhile is copied next
  }, function () { syncing = null; return null; });
  return syncing;
}

function sync(restarts) {  // the manifest's build, copied unless it is the copy in use
  return Promise.all([manifest(), current(), asked()]).then(function (all) {
    var state = all[0], meta = all[1], lang = all[2] || (meta && meta.locale);
    if (!lang) return null;  // no page has said its language yet
    var want = state.packs[lang] ? lang : state.default;
    if (meta && meta.build === state.build && meta.locale === want) return meta;
    return copy(state, want, meta).catch(function (e) {
      if (e instanceof BuildChanged && restarts > 0) return sync(restarts - 1);
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

function here(u) { return new URL(u, SCOPE).href; }

function copy(state, locale, inUse) {  // the manifest's build whole into its cache, or a failure
  var name = "kb-" + state.build + "-" + locale, pack = packless() ? null : here(state.packs[locale]);
  var own = (state.own && state.own[locale]) || [];  // the language's own files: its Anki package
  var urls = (pack ? [pack] : pageUrls(state, locale)).concat(state.assets.map(here), own.map(here), [here(state.search)]);
  progress = { done: 0, total: urls.length + (pack ? state.pages.length : 0) };  // a pack counts as its pages and web manifest
  return Promise.all([caches.open(name), inUse ? caches.open(inUse.cache) : null]).then(function (both) {
    var queue = urls.slice(), failed = null, headers = null;
    function next() {  // one of PARALLEL runners; all stop taking addresses once one has failed
      var url = !failed && queue.shift();
      if (!url) return Promise.resolve();
      var kept = url === pack ? keepPack(both[0], both[1], url, state, name, inUse) : keep(both[0], both[1], url, state);
      return kept.then(function (r) {
        headers = headers || (r && r.packHeaders);
        advance(state.build, r && r.entries);
        return next();
      }, function (e) { failed = failed || e; });
    }
    var workers = [];
    for (var i = 0; i < PARALLEL; i++) workers.push(next());
    return Promise.all(workers).then(function () {
      return failed ? abandon(name, failed) : complete(state, locale, name, headers);
    });
  });
}

function packless() { return typeof DecompressionStream === "undefined"; }  // a browser that cannot unpack: a page a request

function pageUrls(state, locale) {
  var folder = state.folders ? state.folders[locale] : "";
  return state.pages.map(function (p) { return here(folder + p); });
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

// A pack's entries go into the copy each as its own response; what the pack held (its tag, its
// entries' addresses) is noted beside, so that a copy resumed finds it done, and the next build's
// copy, given a 304 for the same pack, takes the entries from this one without a download.
function keepPack(cache, old, url, state, name, inUse) {
  return packNote(name).then(function (note) {
    if (note) return note;
    return (inUse && old ? packNote(inUse.cache) : Promise.resolve(null)).then(function (before) {
      var headers = before && before.url === url ? { "if-none-match": before.etag } : {};
      return fetch(url, { credentials: "same-origin", cache: "no-store", headers: headers }).then(function (r) {
        if (!r.ok && r.status !== 304) throw new Error(url + ": HTTP " + r.status);
        if (!ofBuild(r, state)) throw new BuildChanged(r.headers.get("x-build"));
        var entries = r.status === 304 && headers["if-none-match"] ? moved(old, cache, before, state.build) : unpacked(r, cache, state.build);
        return entries.then(function (got) {
          var kept = { url: url, etag: r.headers.get("etag") || (before && before.etag), entries: got.entries, packHeaders: got.headers };
          return caches.open(META).then(function (m) { return m.put("pack-" + name, json(kept)); }).then(function () { return kept; });
        });
      });
    });
  });
}

function json(data) { return new Response(JSON.stringify(data), { headers: { "content-type": "application/json" } }); }

function packNote(name) {
  return caches.open(META).then(function (m) { return m.match("pack-" + name); }).then(function (r) { return r ? r.json() : null; });
}

function unpacked(response, cache, build) {  // {entries: their addresses, headers} once each is in the cache
  return new Response(response.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer().then(function (buffer) {
    var bytes = new Uint8Array(buffer), line = bytes.indexOf(10), at = line + 1;
    var head = JSON.parse(new TextDecoder().decode(bytes.subarray(0, line)));
    return Promise.all(head.entries.map(function (e) {
      var body = bytes.subarray(at, at += e[2]), headers = Object.assign({ "content-type": e[1], "x-build": build }, head.headers);
      return cache.put(here(e[0]), new Response(body, { headers: headers })).then(function () { return here(e[0]); });
    })).then(function (entries) { return { entries: entries, headers: head.headers }; });
  });
}

function moved(old, cache, before, build) {  // a pack unchanged since the copy in use: its entries, of `build` now
  return Promise.all(before.entries.map(function (url) {
    return old.match(url).then(function (r) {
      if (!r) throw new Error(url + ": not in the copy in use");
      return cache.put(url, restamped(r, build));
    });
  })).then(function () { return { entries: before.entries, headers: before.packHeaders }; });
}

function advance(build, entries) {
  var before = progress.done;
  progress.done += entries ? entries.length : 1;
  if (Math.floor(progress.done / 20) > Math.floor(before / 20) || progress.done === progress.total) {
    broadcast({ type: "progress", done: progress.done, total: progress.total, build: build });
  }
}

// A copy cut by a lost network resumes later from what it holds; one overtaken by a new build
// can never be finished (the server no longer has its build), so it goes.
function abandon(name, error) {
  if (!(error instanceof BuildChanged)) return Promise.reject(error);
  return current().then(function (meta) {
    return meta && meta.cache === name ? null : Promise.all([caches.delete(name), forget(name)]);
  }).then(function () { throw error; });
}

function forget(name) { return caches.open(META).then(function (m) { return m.delete("pack-" + name); }); }

function complete(state, locale, name, headers) {  // the whole copy switched in; every other one dropped
  var style = state.assets.filter(function (a) { return /style\.css$/.test(a); })[0];
  var meta = { build: state.build, locale: locale, cache: name, at: new Date().toISOString(), folders: state.folders || null,
               unkept: state.unkept, style: style ? here(style) : null, headers: headers || {} };
  return caches.open(META).then(function (m) {
    return m.put("state", json(meta));
  }).then(function () { return caches.keys(); }).then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== META && k !== name; })
      .map(function (k) { return Promise.all([caches.delete(k), forget(k)]); }));
  }).then(function () {
    progress.done = progress.total;
    broadcast({ type: "state", build: state.build, locale: locale, complete: true, done: progress.done, total: progress.total });
    return meta;
  });
}

function fromCopy(request, ignoreSearch, meta) {
  if (!meta) return caches.match(request, { ignoreSearch: ignoreSearch, ignoreVary: true });
  return caches.open(meta.cache).then(function (c) { return c.match(request, { ignoreSearch: ignoreSearch, ignoreVary: true }); });
}

function languageOf(url, meta) {  // the interface language a page is asked in: its folder in a copy, else ?ui= or the reader's
  var asked = url.searchParams.get("ui") || wanted;
  if (meta.folders) {
    var path = url.href.slice(SCOPE.length);
    asked = Object.keys(meta.folders).filter(function (l) { return path.indexOf(meta.folders[l]) === 0; })[0];
  }
  return asked && meta.unkept[asked] ? asked : meta.locale;
}

function keptAddress(url, lang, meta) {  // the same page in the language the copy is in
  if (!meta.folders) {
    var there = new URL(url.href);
    there.searchParams.set("ui", meta.locale);
    return there.href;
  }
  return SCOPE + meta.folders[meta.locale] + url.href.slice(SCOPE.length + meta.folders[lang].length);
}

function escaped(text) {
  return String(text).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
}

function unkept(url, lang, meta) {  // offline, a page of a language the copy is not in: said so, in that language
  var words = meta.unkept[lang], kept = meta.locale;
  var html = '<!doctype html>\n<html lang="' + lang + '"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><title>' + escaped(words.title) + "</title>" +
    (meta.style ? '<link rel="stylesheet" href="' + escaped(meta.style) + '">' : "") + '</head><body><main id="main" class="unkept">' +
    "<h1>" + escaped(words.title) + '</h1><p role="alert">' + escaped(words.text) + "</p><p>" + escaped(words.other) +
    ' <a href="' + escaped(keptAddress(url, lang, meta)) + '" hreflang="' + kept + '" lang="' + kept + '">' +
    escaped(words.names[kept]) + "</a></p></main></body></html>\n";
  var headers = Object.assign({}, meta.headers, { "content-type": "text/html; charset=utf-8", "content-language": lang });
  return new Response(html, { status: 503, headers: headers });
}

function answer(request, url, meta) {
  var searching = /\/search(\.html)?$/.test(url.pathname) && url.search;
  var lang = meta && request.mode === "navigate" ? languageOf(url, meta) : null;
  var other = lang !== null && lang !== meta.locale;
  if (searching || url.searchParams.has("ui") || other) {  // the server answers; without it, the copy does
    return fetch(request).catch(function () {
      return other ? unkept(url, lang, meta) : fromCopy(request, true, meta);
    });
  }
  if (!meta) {  // no complete copy yet: the network, and only without one what a copy under way holds
    return fetch(request).catch(function () {
      return fromCopy(request, true, null).then(function (r) { return r || Response.error(); });
    });
  }
  var asked = meta.folders && /\/$/.test(url.pathname) ? new Request(url.origin + url.pathname + "index.html") : request;
  return fromCopy(asked, false, meta).then(function (kept) {  // a copy's folder is its index.html
    return kept || fetch(request).catch(function () {
      return fromCopy(request, true, meta).then(function (r) { return r || Response.error(); });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("/api/") >= 0 || url.pathname.endsWith("/sw.js") || request.url === STATE_URL) return;
  if (request.mode === "navigate") {
    var chosen = url.searchParams.get("ui");  // the reader chose a language: the pages after it follow it at once,
    if (chosen && /^[a-z]{2,3}$/.test(chosen)) remember(chosen);  // before the page can say so
    event.waitUntil(check(false) || Promise.resolve());
  }
  event.respondWith(current().then(function (meta) {
    return (request.mode === "navigate" && meta && !meta.folders ? readerCookie() : Promise.resolve(null)).then(function (ui) {
      if (ui && ui !== wanted && meta.unkept[ui]) remember(ui);
      return answer(request, url, meta);
    });
  }));
});
