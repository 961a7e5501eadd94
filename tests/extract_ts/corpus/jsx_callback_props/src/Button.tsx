// A component's props are what its JSX elements pass: calling a callback prop calls the functions
// given to it (resolution inferred), destructured or through `props.`.

export function Button({ onPress, label }: { onPress: () => void; label: string }) {
  const click = () => onPress();
  return <button onClick={click}>{label}</button>;
}

export function Field(props: { onChange: (v: string) => void }) {
  props.onChange("x");
  return <input />;
}

export function Passive({ onIgnored }: { onIgnored: () => void }) {
  return <span onClick={onIgnored} />; // handed to a DOM element: not a call by Passive
}
