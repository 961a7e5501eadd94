function target() {}
function other() {}
function callFirst() {
  arguments[0]();
}
callFirst(target, other);
function callAll() {
  for (var i = 0; i < arguments.length; i++) arguments[i]();
}
callAll(target, other);
function viaArrow() {
  const go = () => arguments[1]();
  go();
}
viaArrow(target, other);
