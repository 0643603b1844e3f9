// Live updates never wipe what a player is typing: the table is swapped in as soon as
// another phone logs, and every field the player has changed since his last tap gets his
// value back (found again by its form's type, seat and boutique and its own name), with
// its <details> open, the focus and the caret. A form the player sends starts afresh.
(function () {
  var typed = {};  // field key -> value the player entered
  var focused = null;

  function key(field) {
    var form = field.form;
    if (!form || !field.name) return null;
    var part = function (name) { var input = form.querySelector("[name='" + name + "']"); return input ? input.value : ""; };
    return [part("type"), part("seat"), part("boutique"), field.name].join("|");
  }
  function fields(table) {
    return table ? Array.prototype.slice.call(table.querySelectorAll("input:not([type=hidden]), select, textarea")) : [];
  }

  document.addEventListener("input", function (event) {
    var field = event.target;
    if (field.closest && field.closest("#table") && key(field)) typed[key(field)] = field.value;
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (event.detail.requestConfig && event.detail.requestConfig.verb !== "get") typed = {};
  });
  document.addEventListener("htmx:beforeSwap", function () {
    var active = document.activeElement;
    var inTable = active && active.form && active.closest("#table") && key(active);
    focused = inTable ? { key: key(active), start: active.selectionStart, end: active.selectionEnd } : null;
  });
  document.addEventListener("htmx:afterSwap", function () {
    fields(document.getElementById("table")).forEach(function (field) {
      var k = key(field);
      var isFocused = focused && focused.key === k;
      if (!(k in typed) && !isFocused) return;
      if (k in typed) field.value = typed[k];
      var details = field.closest("details");
      if (details) details.open = true;
      if (isFocused) {
        field.focus();
        try { field.setSelectionRange(focused.start, focused.end); } catch (e) { /* not a text field */ }
      }
    });
  });
})();
