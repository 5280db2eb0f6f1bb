/* Sort a table by a column when its header is clicked (optional). */
(function () {
	function key(td) {
		var v = td ? td.getAttribute("data-v") : null;
		return v === null || v === "" ? NaN : parseFloat(v);
	}
	var ths = document.querySelectorAll("th.sortable");
	Array.prototype.forEach.call(ths, function (th) {
		th.addEventListener("click", function () {
			var table = th.closest("table");
			var body = table.tBodies[0];
			var col = th.cellIndex;
			var desc = th.getAttribute("data-desc") !== "1";
			var rows = Array.prototype.slice.call(body.rows);
			th.setAttribute("data-desc", desc ? "1" : "0");
			rows.sort(function (a, b) {
				var x = key(a.cells[col]), y = key(b.cells[col]);
				if (isNaN(x)) return 1;
				if (isNaN(y)) return -1;
				return desc ? y - x : x - y;
			});
			rows.forEach(function (r) { body.appendChild(r); });
		});
	});
})();
