import { Button, Icon } from "./Button";
import { Panel } from "./Panel";
import * as UI from "./Button";
import { Tooltip } from "@mui/material";
export default function App() {
  return (
    <Panel>
      <Button label="a" />
      <UI.Icon />
      <Tooltip title="t" />
      <span />
    </Panel>
  );
}
