"""The site without a network: the service worker, its packs and routes, the static copy (`kb site`)."""
