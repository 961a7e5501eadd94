import { Emitter, subscribe, publish } from "./emitter.js";

function onReady() {}
function onClose() {}
function onTopic() {}
function notCalled() {}

const bus = new Emitter();
bus.on("ready", onReady).on("close", onClose);
bus.emit("ready");
bus.emitAll("close");

subscribe("news", onTopic);
publish("news");
notCalled;
