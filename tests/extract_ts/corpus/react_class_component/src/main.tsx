import { createRoot } from "react-dom/client";
import { Counter } from "./Counter";
createRoot(document.getElementById("root")!).render(<Counter label="x" onChange={(n) => console.log(n)} />);
