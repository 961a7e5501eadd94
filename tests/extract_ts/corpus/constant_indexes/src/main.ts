import { finish, runAll, runFirst } from "./steps";

type Handler = () => void;

function onOpen() {}

function onClose() {}

const handlers: Handler[] = [onOpen, onClose];
const CLOSE = 1;
handlers[CLOSE]();

finish();
runFirst();
runAll();
