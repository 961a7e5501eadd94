// Code splitting: import("./x") is a promise of the module; the callbacks given to its then /
// catch are called (with the module namespace), like those of any other promise.
function showError(err) {
  return err;
}

export function open() {
  return import("./pages/home.js")
    .then((page) => {
      page.render();
      page.default();
    })
    .catch(showError);
}

export function lazy() {
  return () => import("./pages/home.js").then(({ render }) => render());
}
