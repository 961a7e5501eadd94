import { Service } from "@app/service";
import { double } from "lib/helpers";
new Service().start();
double(2);
