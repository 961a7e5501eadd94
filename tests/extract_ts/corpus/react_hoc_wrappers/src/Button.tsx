import React, { memo, forwardRef } from "react";
function ButtonImpl({ label }: { label: string }) {
  return <button>{label}</button>;
}
export const Button = memo(ButtonImpl);
export const Input = forwardRef((props: { name: string }, ref) => <input name={props.name} />);
export const Card = React.memo(function Card() {
  return <Button label="x" />;
});
export default memo(Card);
