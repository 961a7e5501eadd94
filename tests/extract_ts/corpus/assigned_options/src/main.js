import { Widget } from "./widget";

function opened() {}

function closed() {}

const w = new Widget({ onOpen: opened, onClose: closed });
w.open();
w.close();
