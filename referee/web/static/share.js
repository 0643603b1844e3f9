// A result to share: the phone's share sheet (Web Share API) gets the standings as a PNG,
// drawn here from the SVG (messengers show PNGs; the server draws no pixels), with the
// link. Where there is no share sheet, or it cannot take the file, the link does its own
// work: it downloads the image (SVG).
(function () {
  var link = document.getElementById("share");
  if (!link || !navigator.share || !navigator.canShare) return;
  var png = new Promise(function (resolve, reject) {
    var image = new Image();
    image.onload = function () {
      var canvas = document.createElement("canvas");
      canvas.width = 1200;
      canvas.height = 630;
      canvas.getContext("2d").drawImage(image, 0, 0, 1200, 630);
      canvas.toBlob(function (blob) { if (blob) resolve(blob); else reject(new Error("no PNG")); }, "image/png");
    };
    image.onerror = reject;
    image.src = link.href;
  });
  png.catch(function () { /* the share sheet gets the SVG */ });
  link.addEventListener("click", function (event) {
    if (link.dataset.download) return;  // the share sheet failed: the download instead
    event.preventDefault();
    var data = { title: link.dataset.title, text: link.dataset.text, url: link.dataset.url };
    png.then(function (blob) { return new File([blob], link.getAttribute("download").replace(/\.svg$/, ".png"), { type: "image/png" }); },
             function () { return fetch(link.href).then(function (answer) { return answer.blob(); }).then(function (blob) {
               return new File([blob], link.getAttribute("download"), { type: "image/svg+xml" }); }); })
      .then(function (file) {
        if (navigator.canShare({ files: [file] })) data.files = [file];
        return navigator.share(data);
      })
      .catch(function (error) {
        if (error && error.name === "AbortError") return;  // the player closed the sheet
        link.dataset.download = "1";
        link.click();
      });
  });
})();
