import { title } from "@org/ui";
import lodash from "lodash";
title("x");
lodash.chunk([]);
