// A result to share: the phone's share sheet (Web Share API) gets the standings as the
// server's PNG (the link's own file; messengers take PNGs), with the link. The file is
// fetched at load, so the tap still counts as the player's when the sheet opens. Where
// there is no share sheet, or it fails, the link does its own work: it downloads the PNG.
(function () {
  var link = document.getElementById("share");
  if (!link || !navigator.share || !navigator.canShare) return;
  var file = fetch(link.href).then(function (answer) {
    if (!answer.ok) throw new Error(answer.status);
    return answer.blob();
  }).then(function (blob) { return new File([blob], link.getAttribute("download"), { type: "image/png" }); });
  file.catch(function () { /* the share sheet gets the link alone */ });
  link.addEventListener("click", function (event) {
    if (link.dataset.download) return;  // the share sheet failed: the download instead
    event.preventDefault();
    var data = { title: link.dataset.title, text: link.dataset.text, url: link.dataset.url };
    file.then(function (png) { if (navigator.canShare({ files: [png] })) data.files = [png]; }, function () {})
      .then(function () { return navigator.share(data); })
      .catch(function (error) {
        if (error && error.name === "AbortError") return;  // the player closed the sheet
        link.dataset.download = "1";
        link.click();
      });
  });
})();
