// A tree of objects built and walked recursively, strings joined, arrays sorted: an allocating interpreter load.
function build(d, seed) {
  if (d === 0) return { v: seed % 97, s: 'leaf' + seed };
  return { l: build(d - 1, seed * 2 + 1), r: build(d - 1, seed * 2 + 2), tag: [d, seed].join(':') };
}
function walk(t, acc) {
  if (t.s !== undefined) { acc.push(t.s.length + t.v); return t.v; }
  return (walk(t.l, acc) + walk(t.r, acc) + t.tag.length) % 1000003;
}
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
var total = 0, out = [];
for (var round = 0; round < 200; round++) {
  var acc = [];
  total = (total + walk(build(14, round), acc)) % 1000003;
  acc.sort(function (a, b) { return a - b; });
  total = (total + acc[acc.length >> 1] + fib(18)) % 1000003;
  out.push(round + ' ' + total);
}
var w = new java.io.FileWriter(arguments[0]);
w.write(out.join('\n') + '\n');
w.close();
