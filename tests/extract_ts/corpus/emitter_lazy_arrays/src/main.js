import { Emitter, publish, subscribe } from "./emitter";

function onData(data) {}

function onSaved() {}

const bus = new Emitter();
bus.on("data", onData);
bus.emit("data", 1);

subscribe("saved", onSaved);
publish("saved");
