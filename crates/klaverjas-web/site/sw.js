// Keeps the game for offline play: the files a first visit needs (the
// page, the game, the French deck halved), listed by the build in files.js with
// its version, are cached on install; anything else fetched later (another
// deck, when chosen) is cached as it comes. A request is answered from the
// cache first, and a new build's version replaces the old cache.
importScripts("files.js");

const CACHE = "klaverjas-" + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("klaverjas-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  // The page with any query (?demo&seed=7) is the one page.
  const key = url.origin === location.origin && url.pathname.endsWith("/") ? new Request(url.pathname) : event.request;
  event.respondWith(
    caches.match(key, { ignoreSearch: key !== event.request }).then(
      (hit) =>
        hit ||
        fetch(event.request).then((response) => {
          if (response.ok && url.origin === location.origin) {
            const copy = response.clone();
            caches.open(CACHE).then((cache) => cache.put(key, copy));
          }
          return response;
        }),
    ),
  );
});
