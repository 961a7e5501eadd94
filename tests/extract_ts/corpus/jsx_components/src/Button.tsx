export function Button({ label }: { label: string }) {
  return <button>{label}</button>;
}
export const Icon = () => <i />;
