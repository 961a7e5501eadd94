// Promise.all([p, q]) resolves to the array of what p and q resolve to, in order: awaited and
// destructured, or destructured in the callback of then.
function render() {}
function save() {}

async function loadView() {
  return { render };
}
async function loadStore() {
  return { save };
}

async function start() {
  const [view, store] = await Promise.all([loadView(), loadStore()]);
  view.render();
  store.save();
}

function startLater() {
  return Promise.all([loadStore(), loadView()]).then(([store, view]) => {
    store.save();
    view.render();
  });
}

async function startAll() {
  const parts = await Promise.all([loadView(), loadView()]);
  parts.forEach((p) => p.render());
}

start();
startLater();
startAll();
