// Training: recursion, arrays and regular expressions, another mix.
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
var a = [];
for (var i = 0; i < 20000; i++) a.push((i * 104729) % 10007);
a.sort(function (x, y) { return x - y; });
var m = 0, re = /(\d+)-(\d+)/;
for (var i = 0; i < 5000; i++) if (re.test(i + "-" + (i * 3))) m++;
print(fib(20), a[100], m);
