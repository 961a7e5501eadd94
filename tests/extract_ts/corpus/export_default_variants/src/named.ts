function impl() {
  return 1;
}
export { impl as publicName };
const local = () => impl();
export default local;
