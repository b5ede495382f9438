// A link that carries a secret keeps it in its fragment: a table's QR (/j#TOKEN) and a
// director link (/e/<id>/director#TOKEN). A browser never sends the fragment, so no request
// line, and so no proxy's or server's access log, holds the token. Here the page takes it
// out of the address bar (history.replaceState: a bookmark, the history or a screenshot of
// the address bar keep no token) and POSTs it at once through form[data-fragment-token].
// Without a fragment (or without this script) the page's [data-no-token] part stays.
(function () {
  "use strict";
  var form = document.querySelector("form[data-fragment-token]");
  var raw = location.hash.slice(1), token = "";
  try { token = decodeURIComponent(raw); } catch (e) { token = raw; }
  token = token.replace(/\s+/g, "");
  if (!form || !token) return;
  history.replaceState(history.state, "", location.pathname + location.search);
  form.elements.token.value = token;
  var box = document.querySelector("[data-token-box]"), other = document.querySelector("[data-no-token]");
  if (box) box.hidden = false;
  if (other) other.hidden = true;
  if (form.requestSubmit) form.requestSubmit(); else form.submit();
})();
