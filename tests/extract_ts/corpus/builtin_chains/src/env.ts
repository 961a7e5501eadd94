export function config() {
  const mode = process.env.NODE_ENV?.toLowerCase();
  const href = window.location.href.split("#");
  document.body.appendChild(document.createElement("div"));
  process.stdout.write("x");
  return [mode, href];
}
