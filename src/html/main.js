/* Draws the page's data with its kind's drawer, then tells whoever waits
 * (tests/html/check_page.py, a print job) that the page is complete. */
(function () {
  const data = JSON.parse(document.getElementById("cb-data").textContent);
  const draw = CB.kinds[data.kind];
  if (!draw) throw new Error("cephbench page: no drawer for kind " + data.kind);
  draw(data, document.getElementById("cb-root"));
  document.body.dataset.ready = "1";
})();
