import handlers from "./handlers";
import def, { publicName } from "./named";
handlers.handle();
handlers.other();
def();
publicName();
