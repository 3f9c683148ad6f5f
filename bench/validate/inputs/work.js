// An interpreter's mix: objects, arrays, strings, closures, sorting.
function Vec(x, y, z) { this.x = x; this.y = y; this.z = z; }
Vec.prototype.add = function (o) { return new Vec(this.x + o.x, this.y + o.y, this.z + o.z); };
Vec.prototype.dot = function (o) { return this.x * o.x + this.y * o.y + this.z * o.z; };
var acc = new Vec(0, 0, 0), dots = 0;
for (var i = 0; i < 60000; i++) {
	var v = new Vec(i % 7, i % 11, i % 13);
	acc = acc.add(v);
	dots += v.dot(acc) % 1000;
}
var words = [];
for (var i = 0; i < 20000; i++) words.push("w" + ((i * 7919) % 5003).toString(36));
var counts = {};
words.forEach(function (w) { counts[w] = (counts[w] || 0) + 1; });
var keys = Object.keys(counts).sort(function (a, b) { return counts[b] - counts[a] || (a < b ? -1 : 1); });
var json = JSON.stringify({ keys: keys.slice(0, 500), acc: acc });
var back = JSON.parse(json);
var s = "";
for (var i = 0; i < 3000; i++) s += String.fromCharCode(97 + i % 26);
print(keys.length, back.keys.length, dots, s.replace(/a/g, "A").length);
