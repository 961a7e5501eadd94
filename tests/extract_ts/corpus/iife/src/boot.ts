function setup() {
  return 1;
}
(function () {
  setup();
})();
(() => {
  console.log("boot");
})();
(async () => {
  await Promise.resolve(setup());
})();
