export default class Widget {
  render() {
    return 1;
  }
}
