// Live updates never wipe what a player is typing: the table is swapped in as soon as
// another phone logs, and every field the player has changed since his last tap gets his
// value back (found again by its form's type, seat and boutique and its own name), with
// its <details> open, the focus and the caret. A form the player sends starts afresh,
// unless it comes back with an error: then what he sent is put back, to correct it.
// Tap pickers: a button with data-append adds its card to the field data-target names
// (data-undo takes the last one off), as if the player had typed it; in a grid of cards that
// exist once (data-unique) a card already named stays named once, however often it is tapped
// (a player taps his hand as he holds it, the cards filled in among them); data-line adds a
// player's name as a line of its own, or takes it off.
(function () {
  var typed = {};  // field key -> value the player entered (a list for checkboxes)
  var sent = {};   // the same, for the form just sent
  var focused = null;

  function key(field) {
    var form = field.form;
    if (!form || !field.name) return null;
    var part = function (name) { var input = form.querySelector("[name='" + name + "']"); return input ? input.value : ""; };
    // A tapped chip and a typed field may share a name ("card.price"): each keeps its own value.
    return [part("type"), part("seat"), part("boutique"), field.name, choice(field) ? "chip" : "typed"].join("|");
  }
  function fields(root) {
    return root ? Array.prototype.slice.call(root.querySelectorAll("input:not([type=hidden]), select, textarea")) : [];
  }
  function choice(field) { return field.type === "radio" || field.type === "checkbox"; }
  function remember(into, field) {
    var k = key(field);
    if (!k) return;
    if (field.type === "checkbox") {
      into[k] = fields(field.form).filter(function (f) { return key(f) === k && f.checked; }).map(function (f) { return f.value; });
    } else if (field.type === "radio") {
      if (field.checked) into[k] = field.value;
    } else {
      into[k] = field.value;
    }
  }
  function restore(field, value) {
    if (choice(field)) field.checked = Array.isArray(value) ? value.indexOf(field.value) >= 0 : value === field.value;
    else field.value = value;
  }

  document.addEventListener("input", function (event) {
    var field = event.target;
    if (field.closest && field.closest("#table")) remember(typed, field);
    counted(field);
  });
  // Each card button of a hand shows how many of its card the field holds (×2), typed or tapped,
  // from the first page on (a field may come filled in); a card that exists once shows as pressed.
  function counted(field) {
    if (!field.id) return;
    var tokens = field.value.split(/\s+/).filter(Boolean);
    document.querySelectorAll("button[data-append][data-target='" + field.id + "']").forEach(function (button) {
      var count = tokens.filter(function (token) { return token.toUpperCase() === button.getAttribute("data-append"); }).length;
      if (button.closest("[data-unique]")) button.setAttribute("aria-pressed", count ? "true" : "false");
      else if (count) button.setAttribute("data-count", count); else button.removeAttribute("data-count");
    });
  }
  document.addEventListener("DOMContentLoaded", function () { fields(document.getElementById("table")).forEach(counted); });
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-append], button[data-undo]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-target") || button.getAttribute("data-undo"));
    if (!field) return;
    var tokens = field.value.split(/\s+/).filter(Boolean), card = button.getAttribute("data-append");
    var other = function (token) { return token.toUpperCase() !== card; };
    if (!card) tokens.pop();
    else if (!button.closest("[data-unique]") || tokens.every(other)) tokens.push(card);  // a unique card named once, however often tapped
    field.value = tokens.join(" ");
    field.dispatchEvent(new Event("input", { bubbles: true }));
  });
  // A group's player (data-line) is seated next, one line per seat; a second tap unseats him.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-line]");
    if (!button) return;
    var field = document.getElementById(button.getAttribute("data-target"));
    var name = button.getAttribute("data-line");
    var lines = field.value.split("\n").map(function (line) { return line.trim(); }).filter(Boolean);
    var at = lines.indexOf(name);
    if (at >= 0) lines.splice(at, 1); else lines.push(name);
    field.value = lines.join("\n");
    button.setAttribute("aria-pressed", at >= 0 ? "false" : "true");
    offerNames(field);
  });
  // The New game form offers the typed players by name ("I play: Anna", "Who starts?"),
  // rebuilt as names are typed; a choice stays while its name does.
  function offerNames(field) {
    var names = field.value.split(/[\n,]/).map(function (line) { return line.trim().replace(/\s+/g, " "); }).filter(Boolean);
    document.querySelectorAll("[data-names-from='" + field.id + "']").forEach(function (box) {
      var chosen = box.tagName === "SELECT" ? box.value : (box.querySelector("input:checked") || {}).value;
      box.replaceChildren.apply(box, names.map(function (name) {
        if (box.tagName === "SELECT") {
          var option = document.createElement("option");
          option.textContent = name;
          option.selected = name === chosen;
          return option;
        }
        var label = document.createElement("label"), input = document.createElement("input");
        input.type = "radio"; input.name = box.getAttribute("data-field"); input.value = name; input.required = true; input.checked = name === chosen;
        label.append(input, " " + box.getAttribute("data-pattern").replace("{name}", name));
        return label;
      }));
    });
  }
  document.addEventListener("input", function (event) {
    if (event.target.id && document.querySelector("[data-names-from='" + event.target.id + "']")) offerNames(event.target);
  });
  // A move that gives something up (sell a senator, pay, defer, return) asks once first.
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-confirm]");
    if (button && !window.confirm(button.getAttribute("data-confirm"))) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);
  var sentForm = null;  // which form the player tapped: a refusal is shown next to it
  function formKey(form) {
    var part = function (name) { var input = form.querySelector("input[type=hidden][name='" + name + "']"); return input ? input.value : ""; };
    return [part("type"), part("seat"), part("boutique"), part("card")].join("|");
  }
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.requestConfig && event.detail.requestConfig.verb !== "get" && !flushing) {  // (a kept move brings its own)
      var form = event.detail.elt.closest ? event.detail.elt.closest("form") : null;
      sentForm = form ? formKey(form) : null;
      sent = {};
      fields(form).forEach(function (field) { remember(sent, field); });
      typed = {};
    }
  });
  document.addEventListener("htmx:beforeSwap", function () {
    var active = document.activeElement;
    var inTable = active && active.form && active.closest("#table") && key(active);
    focused = inTable ? { key: key(active), start: active.selectionStart, end: active.selectionEnd } : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    var table = document.getElementById("table");
    var refused = table && table.querySelector(".flash[role=alert]");
    var values = refused ? Object.assign({}, sent, typed) : typed;
    fields(table).forEach(function (field) {
      var k = key(field);
      var isFocused = focused && focused.key === k;
      if (!(k in values) && !isFocused) return;
      if (k in values) restore(field, values[k]);
      var details = field.closest("details");
      if (details && k in values && String(values[k])) details.open = true;
      if (isFocused && !choice(field)) {
        field.focus();
        try { field.setSelectionRange(focused.start, focused.end); } catch (e) { /* not a text field */ }
      }
    });
    // A refused move stays half-made: what was sent is kept as typed, so the next update
    // from another phone puts it back too.
    fields(table).forEach(counted);
    if (refused) { typed = values; showRefusalAt(table, refused); }
    sent = {};
  });
  // A refusal stands where the player looks: after the form he tapped (or the place of the
  // moves, when that form is gone because the table moved on), read out by screen readers.
  function showRefusalAt(table, refused) {
    if (sentForm === null) return;
    var forms = Array.prototype.slice.call(table.querySelectorAll("form"));
    var same = forms.filter(function (form) { return formKey(form) === sentForm; })[0];
    var anchor = same || table.querySelector("#actions");
    if (!anchor) return;
    anchor.insertAdjacentElement("afterend", refused);
    refused.setAttribute("tabindex", "-1");
    refused.scrollIntoView({ block: "center" });
    refused.focus({ preventScroll: true });
    sentForm = null;
  }

  // The screen stays where the player needs it. When his turn comes, what he must beat (the
  // copy of [data-beat] above his controls: the cards on the table, the auction, the open
  // bill, or the round's result for a leader) and his first control are brought into one
  // screen above the fixed turn bar, so a move of one card or chip is one tap. After his own
  // move what he must beat stays in sight, or, where nothing is to beat, what his move
  // brought about (a game over). Nothing moves while he types, after a refusal (which stands
  // where he tapped), or when all of it is in sight already.
  var ownMove = false, wasMine = false, controlShown = false;
  document.addEventListener("htmx:beforeSwap", function () {
    var table = document.getElementById("table");
    wasMine = document.querySelector("#table .turnbar.mine") !== null;
    controlShown = wasMine && table && firstControl(table) !== null && inSight(firstControl(table));  // kept in sight through updates
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    if (event.detail.requestConfig && event.detail.requestConfig.verb !== "get" && elt.closest && elt.closest("#table")) ownMove = true;
  });
  function barTop() {
    var bar = document.querySelector(".turnbar");
    return window.innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
  }
  function topLine() {  // below the status line that sticks at the top (offline, reconnecting), if shown
    var bar = document.getElementById("live-bar");
    return bar ? Math.max(0, bar.getBoundingClientRect().bottom) : 0;
  }
  function inSight(element) {
    var rect = element.getBoundingClientRect();
    return rect.height > 0 && rect.top >= topLine() - 1 && rect.bottom <= barTop() + 1;  // (sub-pixel layout)
  }
  function shown(table, selector) {
    return Array.prototype.slice.call(table.querySelectorAll(selector)).filter(function (e) { return e.getClientRects().length; });
  }
  // The first thing this phone taps for its move: the first control between #actions and the bar.
  function firstControl(table) {
    var actions = table.querySelector("#actions"), bar = table.querySelector(".turnbar");
    if (!actions) return null;
    return shown(table, "button, select, input:not([type=hidden]), label.pick").filter(function (e) {
      return (actions.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_FOLLOWING) && !(bar && bar.contains(e));
    })[0] || null;
  }
  // What to beat (the last [data-beat] above it) and the first control in one screen, or at
  // least the control; false where this phone has no control.
  function showMove(table) {
    var control = firstControl(table);
    if (!control) return false;
    var beat = shown(table, "[data-beat]").filter(function (e) { return e.getBoundingClientRect().top <= control.getBoundingClientRect().top; }).pop();
    if (inSight(control) && (!beat || inSight(beat))) return true;
    var top = (beat || control).getBoundingClientRect().top - 8 - topLine(), bottom = control.getBoundingClientRect().bottom;
    window.scrollBy(0, bottom - top <= barTop() - topLine() ? top : bottom - barTop() + 8);
    return true;
  }
  // A table opened at this phone's turn opens at its move (a reload keeps where it was), below
  // the status line of a copy shown offline.
  document.addEventListener("DOMContentLoaded", function () {
    var table = document.getElementById("table");
    if (document.getElementById("offline-banner")) reconnecting();
    if (table && table.querySelector(".turnbar.mine") && (window.scrollY === 0 || document.getElementById("offline-banner"))) showMove(table);
  });
  document.addEventListener("htmx:afterSwap", function () {
    var table = document.getElementById("table");
    if (!table) return;
    // The turn has come, or stays (in sight, or after this phone's own record: a hand logged at its turn).
    var mine = table.querySelector(".turnbar.mine") !== null && (!wasMine || controlShown || ownMove), moved = ownMove;
    ownMove = false;
    var active = document.activeElement;
    var typing = active && active.closest && active.closest("#table") && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName) && !choice(active);
    if (!(mine || moved) || typing || table.querySelector(".flash[role=alert]")) return;
    if (mine && showMove(table)) return;
    var beats = shown(table, "[data-beat]");
    if (!beats.length) beats = shown(table, ".news, [data-end]");  // nothing to beat: what the move brought about
    if (!beats.length || beats.some(inSight)) return;
    if (mine) beats[beats.length - 1].scrollIntoView({ block: "start" });
    else beats[0].scrollIntoView({ block: "nearest" });
  });

  // Every phone is a witness: it keeps the last witness hash of the log it saw (seq and
  // hash, per game) and checks, whenever the table comes in, that the server's log still
  // holds it. If not, the log was changed after this phone saw that event: say so, and
  // keep saying it until the player has read it.
  function witness() {
    var table = document.getElementById("table");
    if (!table || !table.dataset.witness) return;
    var key = "table-referee:witness:" + table.dataset.game;
    var now = { seq: Number(table.dataset.seq), hash: table.dataset.witness };
    var seen = null;
    try { seen = JSON.parse(window.localStorage.getItem(key)); } catch (e) { seen = null; }
    var keep = function () { try { window.localStorage.setItem(key, JSON.stringify(now)); } catch (e) { /* private mode */ } };
    var warn = function () {
      var box = document.getElementById("witness-warning");
      if (!box) return;
      box.querySelector("p").textContent = table.dataset.witnessWarning.replace("{seq}", seen.seq);
      box.hidden = false;
      box.querySelector("button").onclick = function () { keep(); box.hidden = true; };
    };
    if (!seen || typeof seen.seq !== "number" || typeof seen.hash !== "string") { keep(); return; }
    if (seen.seq === now.seq) { if (seen.hash === now.hash) keep(); else warn(); return; }
    var url = table.dataset.witnessUrl.replace(/0$/, String(seen.seq));
    fetch(url, { credentials: "same-origin" })
      .then(function (response) { return response.status === 404 ? { hash: null } : response.ok ? response.json() : undefined; })
      .then(function (body) { if (body === undefined) return; if (body.hash === seen.hash) keep(); else warn(); })
      .catch(function () { /* offline: checked on the next update */ });
  }
  document.addEventListener("DOMContentLoaded", witness);
  document.addEventListener("htmx:afterSwap", witness);

  // The phone knows when it is not live: a live update that fails (the server gone, the
  // Wi-Fi gone, a request cut off) shows "Reconnecting…" with the age of the last update,
  // and asks again with a growing pause (1, 2, 4 … 15 s); the next answer brings the table
  // as it is now, with everything missed, and the status goes away (with the offline banner
  // of a copy shown offline). A copy counts its age from when it was kept, and says it all
  // in one line: its banner's words (offline, the moves wait here) with that age.
  var lastUpdate = Number(document.documentElement.getAttribute("data-kept")) || Date.now(), pause = 1000, ticking = null, again = null;
  function liveStatus(show, text) {
    var status = document.getElementById("live-status");
    if (!status) return;
    status.hidden = !show;
    if (show) status.textContent = status.title = text;  // one line on the screen, the whole of it in its title
  }
  function reconnecting() {
    var status = document.getElementById("live-status");
    if (!status) return;
    var seconds = Math.round((Date.now() - lastUpdate) / 1000);
    var banner = document.getElementById("offline-banner");  // a copy shown offline: one line, its banner's words
    if (banner) banner.hidden = true;
    var text = navigator.onLine === false ? (banner ? banner.textContent : status.dataset.offline) : status.dataset.reconnecting;
    liveStatus(true, text + " · " + status.dataset.since.replace("{seconds}", seconds));
    if (!ticking) ticking = setInterval(reconnecting, 1000);
  }
  function retryLater() {
    reconnecting();
    clearTimeout(again);
    again = setTimeout(function () {
      var table = document.getElementById("table");
      if (table && window.htmx) window.htmx.trigger(table, "retry");
    }, pause);
    pause = Math.min(pause * 2, 15000);
  }
  // While its database is away the server answers 503 and names when to ask again
  // (Retry-After, seconds): the phone asks then, not after its own growing pause, and with a
  // quick question (HEAD of this page; the long-poll would wait for news before it answers),
  // so that within moments of the database's return it is live again and sends its outbox.
  function retryAfter(answer) {
    var seconds = Number(answer.getResponseHeader ? answer.getResponseHeader("Retry-After") : answer.headers.get("Retry-After"));
    return seconds > 0 ? seconds * 1000 : 0;
  }
  function retry(answer) {
    var wait = answer ? retryAfter(answer) : 0;
    if (!wait) { retryLater(); return; }
    reconnecting();
    clearTimeout(again);
    again = setTimeout(function () {
      fetch(location.href, { method: "HEAD", credentials: "same-origin", cache: "no-store" }).then(function (answer) {
        if (!answer.ok) throw answer;
        live();
        var table = document.getElementById("table");
        if (table && window.htmx) window.htmx.trigger(table, "retry");
        flush();
      }).catch(function (answer) { retry(answer instanceof Response ? answer : null); });
    }, wait);
  }
  function live() {
    lastUpdate = Date.now();
    pause = 1000;
    clearInterval(ticking);
    ticking = null;
    liveStatus(false);
    var banner = document.getElementById("offline-banner");
    if (banner) banner.remove();
  }
  ["htmx:sendError", "htmx:responseError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (event.detail && event.detail.elt && event.detail.elt.id === "table") retry(event.detail.xhr);
    });
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail && event.detail.target && (event.detail.target.id === "table" || event.detail.elt.id === "table")) live();
  });
  // A move on its way is never cut off: the table's poll shares its sync queue (a poll
  // replaces a poll), so a poll due while a move is in flight is not sent; the move's
  // answer brings the table, and the next poll with it.
  var moving = new Set();
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.requestConfig && event.detail.requestConfig.verb !== "get") moving.add(event.detail.xhr);
  });
  ["htmx:afterRequest", "htmx:sendAbort", "htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, function (event) { moving.delete(event.detail.xhr); });
  });
  // A tap is a move once: a second tap while a move is on its way (a double tap, a tap on a
  // slow connection) sends nothing; htmx asks here before hx-sync would cancel the first.
  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail.elt;
    if (!moving.size || !elt) return;
    if (event.detail.verb === "get" ? elt.id === "table" : elt.closest && elt.closest("#table")) event.preventDefault();
  });
  // A poll under way when the phone goes offline may hang on a dead connection: drop it
  // (never a move: that one fails by itself and goes to the outbox), and ask afresh as
  // soon as the phone is back.
  window.addEventListener("offline", function () {
    var table = document.getElementById("table");
    if (table && window.htmx && !moving.size) window.htmx.trigger(table, "htmx:abort");
    reconnecting();
  });
  window.addEventListener("online", function () { pause = 250; retryLater(); });

  // The screen stays on at the table (Screen Wake Lock API), asked again whenever the page
  // comes back into view; a box turns it off, and the choice is kept. Nothing breaks where
  // the API is missing or says no.
  var awake = null;
  function keepAwake() {
    var box = document.getElementById("keep-awake");
    if (!box || !box.checked || !navigator.wakeLock || document.visibilityState !== "visible") return;
    navigator.wakeLock.request("screen").then(function (lock) { awake = lock; }).catch(function () { awake = null; });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var box = document.getElementById("keep-awake");
    if (!box) return;
    try { box.checked = window.localStorage.getItem("table-referee:keep-awake") !== "off"; } catch (e) { /* private mode */ }
    box.addEventListener("change", function () {
      try { window.localStorage.setItem("table-referee:keep-awake", box.checked ? "on" : "off"); } catch (e) { /* private mode */ }
      if (box.checked) keepAwake(); else if (awake) { awake.release(); awake = null; }
    });
    keepAwake();
  });
  document.addEventListener("visibilitychange", keepAwake);

  // An outbox: no tap is lost or doubled. Every move carries an idempotency key and the seq
  // it was made against (expected_seq). A move that cannot be sent (offline) is kept on the
  // phone, shown as waiting, and sent when the connection is back: a retry of a move that
  // did reach the server is answered as the first time and stored once; if the table moved
  // on meanwhile it is refused as a stale tap, with the player's input put back, as online.
  // The outbox is its reader's own (per game; the reader as in X-Reader, on #outbox-status):
  // each waiting move remembers whom it was tapped for, and before one is sent the phone asks
  // whom it reads the game for now. Another reader's moves (a seat freed or handed on, a host
  // who started to play) are never sent with this phone's token: they are dropped, and every
  // page of the game says so until the player has read it.
  var GAME = (document.getElementById("table") || { dataset: {} }).dataset.game;
  var OUTBOX = "table-referee:outbox:" + GAME, DROPPED = "table-referee:dropped:" + GAME;
  var posting = null, flushing = null, asking = false;
  function newKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function stored(name, entries) {
    try {
      if (entries === undefined) return JSON.parse(window.localStorage.getItem(name) || "[]");
      window.localStorage.setItem(name, JSON.stringify(entries));
    } catch (e) { return []; }
    return entries;
  }
  function outbox(entries) {
    if (entries === undefined) return stored(OUTBOX);
    stored(OUTBOX, entries);
    showOutbox();
    return entries;
  }
  // The phone reads the game as `reader` now: the moves that wait for anyone else go, counted
  // per whom they were tapped for ([{tapped, count}], kept until read).
  function readAs(reader) {
    var entries = outbox(), dropped = stored(DROPPED);
    var others = entries.filter(function (entry) { return entry.reader !== reader; });
    if (!others.length) return;
    others.forEach(function (entry) {
      var same = dropped.filter(function (said) { return said.tapped === entry.tapped; })[0];
      if (same) same.count += 1; else dropped.push({ tapped: entry.tapped, count: 1 });
    });
    stored(DROPPED, dropped);
    outbox(entries.filter(function (entry) { return entry.reader === reader; }));
    showDropped();
  }
  function showDropped() {
    var box = document.getElementById("outbox-dropped");
    if (!box) return;
    var dropped = stored(DROPPED);
    box.hidden = dropped.length === 0;
    box.querySelector("p").textContent = dropped.map(function (said) {
      return (said.count === 1 ? box.dataset.one : box.dataset.many).replace("{count}", said.count)
        .replace("{tapped}", function () { return said.tapped; }).replace("{now}", function () { return box.dataset.now; });
    }).join(" ");
    box.querySelector("button").onclick = function () { stored(DROPPED, []); box.hidden = true; };
  }
  function showOutbox() {
    var box = document.getElementById("outbox-status");
    if (!box) return;
    var waiting = outbox().length;
    box.hidden = waiting === 0;
    box.textContent = box.dataset.waiting.replace("{count}", waiting);
  }
  function values(pairs) {
    var result = {};
    pairs.forEach(function (pair) {
      if (!(pair[0] in result)) result[pair[0]] = pair[1];
      else result[pair[0]] = [].concat(result[pair[0]], pair[1]);
    });
    return result;
  }
  document.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (detail.verb === "get" || !detail.elt.closest || !detail.elt.closest("#table") || flushing) return;
    if (!detail.parameters.key) detail.parameters.key = newKey();
    var status = document.getElementById("outbox-status") || { dataset: {} };
    if (status.dataset.reader && !detail.parameters.reader) detail.parameters.reader = status.dataset.reader;  // the server checks it
    var pairs = [];
    detail.formData.forEach(function (value, name) { pairs.push([name, String(value)]); });
    posting = { path: detail.path, pairs: pairs, reader: status.dataset.reader, tapped: status.dataset.tapped };
  });
  // A move the server cannot store now (503: its database is away) waits here as one sent
  // offline does, and the phone says why.
  function keepMove(event) {
    var away = event.type === "htmx:responseError";
    if (away && (event.detail.xhr.status !== 503 || !event.detail.requestConfig || event.detail.requestConfig.verb === "get")) return;
    if (flushing) { flushing = null; retry(event.detail.xhr); sayAway(away); return; }  // still cut off: try again later
    if (posting && event.detail.elt && event.detail.elt.closest && event.detail.elt.closest("#table")) {
      posting.fields = Object.assign({}, sent);  // what the player entered, to put back if it is refused
      if (!outbox().some(sameAs(posting))) outbox(outbox().concat([posting]));  // a double tap waits once
      posting = null;
      retry(event.detail.xhr);  // after Retry-After when the server names it
      sayAway(away);
    }
  }
  // The same move as `move`: its path, reader and fields (expected_seq among them), whatever its key.
  function sameAs(move) {
    var tapped = function (entry) {
      return JSON.stringify([entry.path, entry.reader, entry.pairs.filter(function (pair) { return pair[0] !== "key"; })]);
    };
    return function (entry) { return tapped(entry) === tapped(move); };
  }
  function sayAway(away) {
    var box = document.getElementById("outbox-status");
    if (away && box && box.dataset.away) box.textContent = box.dataset.away + " · " + box.textContent;
  }
  document.addEventListener("htmx:sendError", keepMove);
  document.addEventListener("htmx:responseError", keepMove);
  function flush() {
    if (!outbox().length || flushing || asking || !window.htmx) return;
    asking = true;  // whom the phone reads for now: the seat may have been freed or handed on meanwhile
    fetch("/g/" + GAME, { method: "HEAD", credentials: "same-origin", cache: "no-store" }).then(function (answer) {
      asking = false;
      var reader = answer.headers.get("X-Reader");
      if (!reader) throw answer;
      readAs(reader);
      var status = document.getElementById("outbox-status");
      if (status && status.dataset.reader !== reader) { location.reload(); return; }  // this page was another reader's
      flushing = outbox()[0] || null;
      if (!flushing) return;
      sent = Object.assign({}, flushing.fields);  // put back if it is refused
      window.htmx.ajax("POST", flushing.path, { target: "#table", swap: "outerHTML", values: values(flushing.pairs) });
    }).catch(function (answer) {
      asking = false;
      retry(answer instanceof Response ? answer : null);
      sayAway(answer instanceof Response && answer.status === 503);
    });
  }
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "table") return;
    if (flushing) {  // the kept move was answered (stored, or refused with the input put back)
      outbox(outbox().slice(1));
      flushing = null;
    }
    setTimeout(flush, 0);
  });
  document.addEventListener("DOMContentLoaded", function () { showOutbox(); showDropped(); flush(); });
  window.addEventListener("online", flush);

  // Offline, a page load is answered from the phone: the page as it last showed, or the
  // app's offline page (the service worker, /sw.js). After every live update the page hands
  // the worker what it shows now, for the reader the update was rendered for (X-Reader).
  // What only this moment shows (the live status, the outbox, htmx's working marks) is left
  // out; a copy shown offline is handed back once it has caught up.
  document.addEventListener("htmx:afterSettle", function (event) {
    var reader = event.detail.xhr && event.detail.xhr.getResponseHeader("X-Reader");
    if (!reader || document.getElementById("offline-banner") || !("serviceWorker" in navigator)) return;
    var page = document.documentElement.cloneNode(true);
    page.querySelectorAll("#live-status, #outbox-status, #outbox-dropped, #witness-warning").forEach(function (e) { e.hidden = true; });
    page.querySelectorAll(".htmx-request, .htmx-settling, .htmx-swapping, .htmx-added").forEach(function (e) {
      e.classList.remove("htmx-request", "htmx-settling", "htmx-swapping", "htmx-added");
    });
    page.setAttribute("data-kept", String(Date.now()));
    var copy = { type: "keep", url: location.href, reader: reader, html: "<!doctype html>\n" + page.outerHTML };
    navigator.serviceWorker.ready.then(function (registration) { if (registration.active) registration.active.postMessage(copy); });
  });
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(function () { /* not on http: of another host */ });

  // A time of day (<time data-clock>, "Break since 21:14") in the phone's own time zone.
  function clocks() {
    document.querySelectorAll("time[data-clock]").forEach(function (time) {
      var moment = new Date(time.getAttribute("datetime"));
      if (!isNaN(moment)) time.textContent = moment.toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
    });
  }
  document.addEventListener("DOMContentLoaded", clocks);
  document.addEventListener("htmx:afterSwap", clocks);
})();
