// `a = b = f` assigns f to both names; a destructuring swap `[p, q] = [q, p]` reads the right
// side first, so each name gets the values the other had (and keeps its own: one of them).
function open() {}
function flip() {}
function close() {}

function chained() {
  let first;
  let second;
  first = second = close;
  first();
  second();
  const third = (first = open);
  third();
}

function swap() {
  let p = open;
  let q = flip;
  [p, q] = [q, p];
  p();
  q();
}

var handler = (exports.handler = close);
handler();

chained();
swap();
