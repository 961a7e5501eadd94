function helper() {
  return 1;
}
export default {
  handle() {
    return helper();
  },
  other: () => 2,
};
