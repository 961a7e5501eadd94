export function Comp() {
  return <div />;
}
