import { Button, Field, Passive } from "./Button";

function save(): void {}
function update(v: string): void {}
function log(): void {}
function never(): void {}

export function App() {
  return (
    <div>
      <Button onPress={save} label="Save" />
      <Button onPress={() => log()} label="Log" />
      <Field onChange={update} />
      <Passive onIgnored={never} />
    </div>
  );
}
