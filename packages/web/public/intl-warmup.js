// Loads the locale data of the browser's Intl formatters while the client's code is still downloading
// (the page's main thread is idle then): the first formatter of a page costs 10 to 20 ms, which the
// first list's render would otherwise wait for. A plain script, not a module: it runs as soon as it
// arrives. Measured in issue 17: rows about 11 ms sooner on a first list, beside the same build without it.
(() => {
  try {
    const locale = navigator.language;
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(0);
    new Intl.NumberFormat(locale, { minimumFractionDigits: 2 }).format(0);
  } catch {
    // A browser without these options: the client formats without the head start.
  }
})();
