// Functions pushed onto a local array: iterating it (`forEach`, `for...of`) calls each one as
// well as the elements it started with; positions the literal gave are kept (`fns[0]`), a
// pushed one's is not known; a push onto a parameter or a typed array changes nothing, and a
// parameter holds the arrays its callers pass (elements, positions).
function a() {}
function b() {}
function c() {}
class Task {
  run() {}
}
function collect() {
  const fns = [c];
  fns.push(a);
  fns.push(b);
  fns.forEach((f) => f());
  fns[0]();
}
function queue() {
  const jobs = [];
  jobs.push(a);
  for (const job of jobs) job();
  jobs[0]();
}
function typed() {
  const tasks: Task[] = [];
  tasks.push(new Task());
  for (const t of tasks) t.run();
}
function param(list) {
  list.push(c);
  list.forEach((f) => f());
}
collect();
queue();
typed();
param([b]);
function firstOf(list) {
  list[0]();
}
firstOf([a, b]);
