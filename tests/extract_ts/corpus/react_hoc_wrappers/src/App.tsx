import Fancy, { Button, Input } from "./Button";
import styled from "styled-components";
const Title = styled.h1`font-size: 2em;`;
export function App() {
  return (
    <div>
      <Title />
      <Button label="ok" />
      <Input name="n" />
      <Fancy />
    </div>
  );
}
