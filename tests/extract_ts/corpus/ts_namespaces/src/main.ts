import { Geometry } from "./geometry";
Geometry.area(1, 2);
new Geometry.Rect(2, 3).area();
Geometry.unit.area();
