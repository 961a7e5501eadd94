import greet from "./greet";
import answer from "./anon";
import Widget from "./Widget";
greet("a");
answer();
const w = new Widget();
w.render();
